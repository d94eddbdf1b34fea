package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.Counter;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The study's side-by-side table, read from two run records written here as a run writes them:
 * documents and bytes, the ingest's span, each process's CPU and memory, the reads' latencies, the
 * ratio of the second store to the first, and the verdict on the reads' counts.
 */
@Tag("slow") // each record takes a second of wall time
class LogStoreStudyTest {
  @TempDir Path dir;

  /**
   * A record of a write of {@code docs} documents over a declared span of 2 s, the server at {@code
   * serverCpu}% and {@code rssMiB}, the injector at 20%, and one read.
   */
  private Path record(String store, long docs, double serverCpu, double rssMiB, boolean readFails)
      throws Exception {
    try (RunRecorder run =
        RunRecorder.open(
            RunOptions.of(store)
                .withBaseDirectory(dir.resolve(store))
                .withFlushInterval(Duration.ofMillis(100)))) {
      long start = System.currentTimeMillis();
      run.gauge("process." + store + "-1.cpu", () -> serverCpu);
      run.gauge("process." + store + "-1.rss", () -> rssMiB * (1 << 20));
      run.gauge("process.injector.cpu", () -> 20.0);
      Counter documents = run.counter("logs.documents");
      Counter bytes = run.counter("logs.bytes");
      RequestChannel read = run.request("status in");
      RequestChannel total = run.request("status in total");
      for (int i = 0; i < 10; i++) {
        documents.add(docs / 10);
        bytes.add(docs * 100 / 10);
        long t = System.nanoTime();
        read.ok(t, t + 2_000_000 * (i + 1)); // 2 to 20 ms
        Thread.sleep(100);
      }
      if (readFails) {
        long t = System.nanoTime();
        total.ko(t, t + 1000, "total 9, expected 10");
      } else {
        long t = System.nanoTime();
        total.ok(t, t + 1000);
      }
      run.metric("time-to-searchable").recordMicros(500_000);
      // the ingest's span as LogsComponents records it: 1 s, well inside the record
      run.parameter("ingestWindow", Map.of("startEpochMs", start, "endEpochMs", start + 1000));
      Thread.sleep(200);
      return run.directory();
    }
  }

  @Test
  void theTableDividesTheSecondStoreByTheFirstRowByRow() throws Exception {
    Map<String, Path> runs = new LinkedHashMap<>();
    runs.put("opensearch", record("opensearch", 100_000, 180, 600, false));
    runs.put("seq-db", record("seq-db", 400_000, 90, 150, false));

    LogStoreStudy study = LogStoreStudy.of(runs, List.of("status in"));
    String table = study.table();
    System.out.print(table);

    assertThat(line(table, "documents written")).contains("100,000", "400,000", "4.00");
    assertThat(line(table, "logs/s ")).contains("100,000", "400,000", "4.00");
    assertThat(line(table, "MiB/s")).contains("9.5", "38.1", "4.00");
    // 180% of a core over the 1 s span, give or take the 100 ms intervals at its edges
    double osCpu = LogStoreStudy.cpuSeconds(study.sides().get(0), "process.opensearch-");
    assertThat(osCpu).isBetween(1.6, 2.2);
    assertThat(LogStoreStudy.peakRss(study.sides().get(1), "process.seq-db-")).isEqualTo(150.0);
    assertThat(line(table, "server peak RSS MiB")).contains("600", "150", "0.25");
    assertThat(line(table, "injector CPU-s")).contains("0.2");
    assertThat(line(table, "time-to-searchable p50 ms")).contains("500");
    assertThat(line(table, "status in p95 ms")).contains("20.0");
    assertThat(study.passed()).isTrue();
    assertThat(study.verdicts())
        .contains(
            "seq-db: passed: the reads agree with the generator (every answer's hits and buckets,"
                + " and 1 counts checked after the reads)");
    assertThat(study.htmlTable()).contains("<th>seq-db / opensearch</th>", "<td>4.00</td>");
  }

  @Test
  void aReadThatDisagreesFailsTheStudyNamingWhy() throws Exception {
    Map<String, Path> runs = new LinkedHashMap<>();
    runs.put("seq-db", record("seq-db", 1_000, 50, 100, true));
    LogStoreStudy study = LogStoreStudy.of(runs, List.of("status in"));
    assertThat(study.passed()).isFalse();
    assertThat(study.verdicts().get(0))
        .isEqualTo(
            "seq-db: FAILED: the reads agree with the generator (every answer's hits and buckets,"
                + " and 1 counts checked after the reads): status in total: total 9, expected 10");
  }

  private static String line(String table, String label) {
    return table.lines().filter(l -> l.startsWith(label)).findFirst().orElseThrow();
  }
}
