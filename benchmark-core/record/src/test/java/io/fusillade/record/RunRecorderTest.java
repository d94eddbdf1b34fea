package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunRecorderTest {
  @TempDir Path base;

  private RunRecorder open() {
    return RunRecorder.open(
        RunOptions.of("io.example.MySimulation")
            .withBaseDirectory(base)
            .withParameters(Map.of("rate", 500))
            .withFlushInterval(Duration.ofMillis(100)));
  }

  private static final long MS = 1_000_000L;

  @Test
  void latencyIsTakenFromTheIntendedStart() {
    RunRecord record;
    try (RunRecorder run = open()) {
      long now = System.nanoTime();
      // Due 200 ms ago (it waited for a connection), answered now.
      run.request("q").ok(now - 200 * MS, now);
      record = readAfterClose(run);
    }
    Histogram ok = record.requests().get("q").ok();
    assertThat(ok.getTotalCount()).isEqualTo(1);
    assertThat(ok.getMaxValue()).isBetween(199_800L, 200_200L); // microseconds, 0.1% precision
  }

  @Test
  void countsPercentilesAndReasonsReadBackExactly() {
    RunRecord record;
    try (RunRecorder run = open()) {
      RequestChannel q = run.request("select by id");
      long t = System.nanoTime();
      for (int i = 1; i <= 1000; i++) {
        q.sent();
        q.ok(t, t + i * 1_000L); // 1..1000 µs
      }
      q.sent();
      q.ko(t, t + 5 * MS, "SQLState 42P01: relation \"x\" does not exist");
      q.sent();
      q.ko(t, t + 7 * MS, "SQLState 42P01: relation \"x\" does not exist");
      q.ko(t, t + MS, "injector queue full");
      q.bytes(4096);
      record = readAfterClose(run);
    }
    RequestTotals q = record.requests().get("select by id");
    assertThat(q.okCount()).isEqualTo(1000);
    assertThat(q.koCount()).isEqualTo(3);
    assertThat(q.sent()).isEqualTo(1002);
    assertThat(q.bytes()).isEqualTo(4096);
    assertThat(q.ok().getValueAtPercentile(50)).isBetween(499L, 501L);
    assertThat(q.ok().getValueAtPercentile(99)).isBetween(989L, 991L);
    assertThat(q.errors())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("SQLState 42P01: relation \"x\" does not exist", 2L, "injector queue full", 1L));
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(record.manifest().parameters()).containsEntry("rate", 500);
  }

  @Test
  void namesWithSpacesCommasAndNonAsciiSurvive() {
    List<String> names = List.of("by id", "a,b", "100%", "запрос", "x/y=z");
    RunRecord record;
    try (RunRecorder run = open()) {
      long t = System.nanoTime();
      names.forEach(n -> run.request(n).ok(t, t + 1000));
      record = readAfterClose(run);
    }
    assertThat(record.requests().keySet()).containsExactlyInAnyOrderElementsOf(names);
  }

  @Test
  void everySecondIsOnDiskBeforeTheRunCloses() throws Exception {
    try (RunRecorder run = open()) {
      RequestChannel q = run.request("q");
      long t = System.nanoTime();
      for (int i = 0; i < 50; i++) {
        q.ok(t, t + 1000);
      }
      Thread.sleep(350); // three flushes at 100 ms
      RunRecord whileRunning = RunRecordReader.read(run.directory());
      assertThat(whileRunning.manifest().status()).isEqualTo(RunStatus.RUNNING);
      assertThat(whileRunning.requests().get("q").okCount()).isEqualTo(50);
      assertThat(whileRunning.seconds()).hasSizeGreaterThanOrEqualTo(2);
    }
  }

  @Test
  void concurrentRecordingLosesNothing() throws Exception {
    int threads = 4;
    int perThread = 50_000;
    RunRecord record;
    try (RunRecorder run = open()) {
      RequestChannel q = run.request("q");
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> workers = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        Thread worker =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (InterruptedException e) {
                    return;
                  }
                  for (int n = 0; n < perThread; n++) {
                    long t = System.nanoTime();
                    q.sent();
                    if (n % 100 == 0) {
                      q.ko(t, t + 10_000, "boom");
                    } else {
                      q.ok(t, t + 10_000);
                    }
                  }
                });
        worker.start();
        workers.add(worker);
      }
      start.countDown();
      for (Thread worker : workers) {
        worker.join(TimeUnit.SECONDS.toMillis(30));
      }
      record = readAfterClose(run);
    }
    RequestTotals q = record.requests().get("q");
    assertThat(q.count()).isEqualTo((long) threads * perThread);
    assertThat(q.koCount()).isEqualTo((long) threads * perThread / 100);
    assertThat(q.sent()).isEqualTo((long) threads * perThread);
    long okInSeconds =
        record.seconds().stream()
            .mapToLong(s -> s.requests().containsKey("q") ? s.requests().get("q").ok() : 0)
            .sum();
    assertThat(okInSeconds).isEqualTo(q.okCount());
  }

  @Test
  void finishHooksSeeWholeRunTotalsAndWriteHealthAndFlags() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      LatencyMetric lag = run.metric("injector.lag");
      for (int i = 0; i < 100; i++) {
        lag.recordMicros(30_000);
      }
      long t = System.nanoTime();
      run.request("q").ok(t, t + MS);
      run.onFinish(
          () -> {
            Histogram total = run.metricTotal("injector.lag");
            run.health("lagCount", total.getTotalCount());
            run.flag("something to know");
          });
      directory = run.directory();
    }
    JsonNode manifest = new ObjectMapper().readTree(directory.resolve(RunFiles.MANIFEST).toFile());
    assertThat(manifest.path("health").path("lagCount").asLong()).isEqualTo(100);
    assertThat(manifest.path("flags").get(0).asText()).isEqualTo("something to know");
    assertThat(manifest.path("status").asText()).isEqualTo("completed");
    assertThat(manifest.path("durationSeconds").asDouble()).isGreaterThanOrEqualTo(0);
    RunRecord record = RunRecordReader.read(directory);
    assertThat(record.metrics().get("injector.lag").getValueAtPercentile(50))
        .isCloseTo(30_000L, within(30L));
  }

  @Test
  void aRunThatSentNoRequestFailsWithItsReason() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      run.metric("injector.lag").recordMicros(100); // measured something, but no request
      directory = run.directory();
    }
    JsonNode manifest = new ObjectMapper().readTree(directory.resolve(RunFiles.MANIFEST).toFile());
    assertThat(manifest.path("status").asText()).isEqualTo("failed");
    assertThat(manifest.path("statusReason").asText()).isEqualTo(RunRecorder.NO_REQUEST);
    RunManifest read = RunRecordReader.read(directory).manifest();
    assertThat(read.status()).isEqualTo(RunStatus.FAILED);
    assertThat(read.statusReason()).isEqualTo("no request was sent");
  }

  @Test
  void aRequestSentButNotYetAnsweredCountsAsSent() throws Exception {
    RunRecorder run = open();
    run.request("q").sent();
    run.close();
    assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(run.statusReason()).isNull();
  }

  @Test
  void aFailedRunKeepsItsStatusAndReasonAndOnlyTheFirstCloseCounts() throws Exception {
    RunRecorder run = open();
    long t = System.nanoTime();
    run.request("q").ok(t, t + MS);
    run.close(RunStatus.FAILED, "Connection refused: localhost/127.0.0.1:1");
    run.close();
    RunManifest read = RunRecordReader.read(run.directory()).manifest();
    assertThat(read.status()).isEqualTo(RunStatus.FAILED);
    assertThat(read.statusReason()).isEqualTo("Connection refused: localhost/127.0.0.1:1");
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
  }

  @Test
  void aCompletedRunCanBeMarkedFailedAfterItClosedAndOnlyThen() throws Exception {
    RunRecorder run = open();
    long t = System.nanoTime();
    run.request("q").ok(t, t + MS);
    run.failAfterClose("too early: still open");
    assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
    run.close();
    long end = RunRecordReader.read(run.directory()).manifest().endEpochMs();
    run.failAfterClose("Load Generator was forcefully crashed: boom");
    run.failAfterClose("a second reason");
    RunManifest read = RunRecordReader.read(run.directory()).manifest();
    assertThat(read.status()).isEqualTo(RunStatus.FAILED);
    assertThat(read.statusReason()).isEqualTo("Load Generator was forcefully crashed: boom");
    assertThat(read.endEpochMs()).isEqualTo(end);
  }

  @Test
  void countersAndGaugesArePerSecond() throws Exception {
    RunRecord record;
    try (RunRecorder run = open()) {
      Counter docs = run.counter("documents");
      run.gauge("lag", () -> 42.0);
      docs.add(10);
      Thread.sleep(150);
      docs.add(5);
      record = readAfterClose(run);
    }
    long sum =
        record.seconds().stream().mapToLong(s -> s.counters().getOrDefault("documents", 0L)).sum();
    assertThat(sum).isEqualTo(15);
    assertThat(record.seconds()).allSatisfy(s -> assertThat(s.gauges()).containsEntry("lag", 42.0));
  }

  @Test
  void twoRunsInTheSameSecondGetTwoDirectories() {
    try (RunRecorder first = open();
        RunRecorder second = open()) {
      assertThat(first.directory()).isNotEqualTo(second.directory());
      assertThat(first.directory().getFileName().toString()).startsWith("MySimulation-");
    }
  }

  @Test
  void anUnfinishedLastLineIsSkippedNotFatal() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      long t = System.nanoTime();
      run.request("q").ok(t, t + 1000);
      directory = run.directory();
    }
    // What a kill in the middle of a write leaves behind.
    Files.writeString(
        directory.resolve(RunFiles.HISTOGRAMS),
        "Tag=req/OK/q,1.000,1.000,0.001,HISTFAAAACl4nJNpmS",
        java.nio.file.StandardOpenOption.APPEND);
    Files.writeString(
        directory.resolve(RunFiles.COUNTERS),
        "{\"t\":123,\"requests\":{\"q\":",
        java.nio.file.StandardOpenOption.APPEND);
    RunRecord record = RunRecordReader.read(directory);
    assertThat(record.requests().get("q").okCount()).isEqualTo(1);
    assertThat(record.truncatedLines()).isEqualTo(2);
  }

  /** Only the last line can be cut by a kill: a bad line with lines after it is a damaged file. */
  @Test
  void aBadLineBeforeTheLastIsAUserErrorNamingTheLine() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      long t = System.nanoTime();
      run.request("q").ok(t, t + 1000);
      directory = run.directory();
    }
    Path histograms = directory.resolve(RunFiles.HISTOGRAMS);
    long lines = Files.readAllLines(histograms).size();
    Files.writeString(
        histograms,
        "garbage\nTag=req/OK/q,1.000,1.000,0.001,HISTFAAAACl4nJNpmS\n",
        java.nio.file.StandardOpenOption.APPEND);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> RunRecordReader.read(directory))
        .isInstanceOf(io.fusillade.FusilladeException.class)
        .hasMessage(
            histograms + ":" + (lines + 1) + ": not a histogram log line: the file is damaged");
  }

  private static RunRecord readAfterClose(RunRecorder run) {
    run.close();
    return RunRecordReader.read(run.directory());
  }
}
