package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.system.LogCounter;
import io.fusillade.system.LogWatch;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code logs:} monitor source counting a real file's lines while a run records ({@link
 * LogCounter}), and the check {@code server log warning < N} judging the count.
 */
class LogCheckTest {
  @TempDir Path dir;

  private static Map<String, String> patterns() {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("warning", "WARNING|could not send");
    p.put("error", "ERROR");
    return p;
  }

  @Test
  void linesWrittenDuringTheRunAreCountedPerPatternAndChecked() throws Exception {
    Path log = dir.resolve("server.log");
    // what the server logged before the run is not the run's
    Files.writeString(log, "old WARNING: before the run\nold ERROR\n");
    RunRecorder run =
        RunRecorder.open(RunOptions.of("logs").withBaseDirectory(dir.resolve("runs")));
    LogCounter.install(run, List.of(LogWatch.of("db", log, patterns())));
    try (Writer out =
        Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.APPEND)) {
      for (int second = 0; second < 3; second++) {
        for (int i = 0; i < 4; i++) {
          out.write("2026-11-27 LOG:  checkpoint starting\n");
          out.write("2026-11-27 WARNING:  could not send data to client: Broken pipe\n");
        }
        out.write("2026-11-27 ERROR:  canceling statement due to statement timeout\n");
        out.write("LOG: could not send"); // a line not ended yet: counted when it is
        out.flush();
        Thread.sleep(1_000);
        out.write(" data\n");
        out.flush();
      }
    }
    Thread.sleep(600);
    run.close();
    Path record = run.directory();

    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> health =
        (Map<String, Map<String, Object>>)
            io.fusillade.record.RunRecordReader.read(record).manifest().health().get("logs");
    assertThat(health.get("db").get("lines")).isEqualTo(Map.of("warning", 15, "error", 3));

    Map<String, CheckResult> r =
        Report.create(
                List.of(record),
                List.of(
                    "server log warning < 20",
                    "server log warning < 10",
                    "server log error <= 3 for db",
                    "server log panic < 1"))
            .results()
            .stream()
            .collect(Collectors.toMap(CheckResult::check, c -> c, (a, b) -> a));
    assertThat(r.get("server log warning < 20").passed()).isTrue();
    assertThat(r.get("server log warning < 20").measured())
        .isEqualTo("log lines matching warning: db 15");
    assertThat(r.get("server log warning < 10").passed()).isFalse();
    assertThat(r.get("server log warning < 10").message())
        .contains("db 15 (fails)", "counted over the whole run, must be below 10");
    assertThat(r.get("server log error <= 3 for db").passed()).isTrue();
    assertThat(r.get("server log panic < 1").passed())
        .as("a pattern no source counts proves nothing")
        .isFalse();
  }

  @Test
  void aRotatedFileIsReadAgainFromItsStart() throws Exception {
    Path log = dir.resolve("rotated.log");
    Files.writeString(log, "WARNING one\nWARNING two\n");
    try (LogCounter counter = LogCounter.start(List.of(LogWatch.of("db", log, patterns())))) {
      Files.writeString(log, "WARNING three\n", StandardOpenOption.APPEND);
      Thread.sleep(500);
      Files.writeString(log, "WARNING\n"); // shorter than before: a new file
      Thread.sleep(500);
      @SuppressWarnings("unchecked")
      Map<String, Object> db = (Map<String, Object>) counter.totals().get("db");
      assertThat(db.get("lines")).isEqualTo(Map.of("warning", 2L, "error", 0L));
    }
  }
}
