package io.fusillade.reports.summary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSummaryTest {
  @TempDir Path base;

  @Test
  void percentilesCoverOkAndKoTogether() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Summary").withBaseDirectory(base))) {
      RequestChannel q = run.request("q");
      long t = System.nanoTime();
      for (int i = 1; i <= 900; i++) {
        q.ok(t, t + i * 1_000L); // 1..900 µs
      }
      for (int i = 901; i <= 1000; i++) {
        q.ko(t, t + i * 1_000L, "timeout");
      }
      directory = run.directory();
    }
    RequestSummary q = RunSummary.of(RunRecordReader.read(directory)).requests().get(0);
    assertThat(q.count()).isEqualTo(1000);
    assertThat(q.ok()).isEqualTo(900);
    assertThat(q.ko()).isEqualTo(100);
    assertThat(q.p50Ms()).isCloseTo(0.500, within(0.001));
    assertThat(q.p99Ms()).isCloseTo(0.990, within(0.001)); // a KO latency: KOs count
    assertThat(q.maxMs()).isCloseTo(1.000, within(0.001));
    assertThat(q.errors()).containsEntry("timeout", 100L);
  }

  @Tag("slow") // records for 2 s of wall time
  @Test
  void theRateIsTheSteadyStateOneWithoutSetupAndDrain() throws Exception {
    Path directory;
    try (RunRecorder run =
        RunRecorder.open(
            RunOptions.of("Rate")
                .withBaseDirectory(base)
                .withFlushInterval(Duration.ofMillis(100)))) {
      Thread.sleep(450); // setup before the first request: must not dilute the rate
      RequestChannel q = run.request("q");
      // 20 requests every 10 ms (2,000/s) for about a second, with a 300 ms stall in the middle
      for (int tick = 0; tick < 100; tick++) {
        if (tick == 50) {
          Thread.sleep(300);
        }
        long t = System.nanoTime();
        for (int i = 0; i < 20; i++) {
          q.ok(t, t + 1000);
        }
        Thread.sleep(10);
      }
      Thread.sleep(450); // drain after the last request: must not dilute it either
      directory = run.directory();
    }
    RunSummary summary = RunSummary.of(RunRecordReader.read(directory));
    double rate = summary.requests().get(0).rate();
    double naive = 2000 / summary.durationSeconds();
    // Sleeping 10 ms takes a bit longer, so the true rate is under 2,000/s; the stall lowers it
    // further (about 2,000 requests over 1.3 s or more). Setup and drain must not.
    assertThat(rate).isBetween(800.0, 1600.0);
    assertThat(rate).isGreaterThan(naive * 1.3);
  }

  @Test
  void theTableShowsEveryRequestAndWarning() throws Exception {
    Path directory;
    try (RunRecorder run = RunRecorder.open(RunOptions.of("Table").withBaseDirectory(base))) {
      long t = System.nanoTime();
      run.request("lookup").ok(t, t + 2_000_000);
      run.request("insert").ko(t, t + 1_000_000, "SQLState 23505: duplicate key");
      run.flag("injector saturated — latencies are not trustworthy");
      directory = run.directory();
    }
    String table = SummaryTable.render(RunSummary.of(RunRecordReader.read(directory)));
    assertThat(table)
        .contains("lookup", "insert", "p99.9 ms", "completed")
        .contains("KO insert: 1 × SQLState 23505: duplicate key")
        .contains("WARNING: injector saturated — latencies are not trustworthy");
  }
}
