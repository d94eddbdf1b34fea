package io.fusillade.health;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.health.InjectorLagMonitor.InjectorHealth;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

// Alone, after the parallel tests: its claim is an event loop's lag, which another test's load
// would add to (see the surefire configuration).
@Tag("exclusive")
class InjectorLagMonitorTest {
  @TempDir Path base;
  private final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stopLoop() {
    loop.shutdownNow();
  }

  private RunRecorder open() {
    return RunRecorder.open(
        RunOptions.of("lag").withBaseDirectory(base).withFlushInterval(Duration.ofMillis(100)));
  }

  @Test
  void aBlockedLoopIsMeasuredAndTheRunMarkedSaturated() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      InjectorLagMonitor.install(run, List.of(loop), Duration.ofMillis(10), Duration.ofMillis(20));
      // The event loop is busy for 300 ms, four times: ticks fall due and cannot run.
      for (int i = 0; i < 4; i++) {
        loop.submit(() -> sleep(300)).get();
        Thread.sleep(20);
      }
      directory = run.directory();
    }
    JsonNode manifest = new ObjectMapper().readTree(directory.resolve(RunFiles.MANIFEST).toFile());
    JsonNode health = manifest.path("health").path(InjectorLagMonitor.HEALTH_KEY);
    assertThat(health.path("maxMs").asDouble()).isGreaterThan(200);
    assertThat(health.path("saturated").asBoolean()).isTrue();
    assertThat(manifest.path("flags").toString()).contains(InjectorLagMonitor.SATURATED_WARNING);
  }

  @Tag("slow") // watches a loop for a second
  @Test
  void anIdleLoopIsNotSaturated() throws Exception {
    try (RunRecorder run = open()) {
      InjectorLagMonitor monitor =
          InjectorLagMonitor.start(List.of(loop), run.metric("lag"), Duration.ofMillis(10));
      Thread.sleep(1000);
      monitor.close();
      run.flush();
      Histogram lag = run.metricTotal("lag");
      // about 100 ticks in a second; a generous bound keeps a busy CI machine from failing it
      assertThat(lag.getTotalCount()).isBetween(50L, 110L);
      assertThat(InjectorHealth.of(lag, Duration.ofMillis(100)).saturated()).isFalse();
    }
  }

  @Test
  void theVerdictComparesTheP99WithTheThreshold() {
    Histogram lag = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < 98; i++) {
      lag.recordValue(1_000); // 1 ms
    }
    lag.recordValue(50_000);
    lag.recordValue(50_000); // 2% of ticks 50 ms late: the p99 is 50 ms
    InjectorHealth health = InjectorHealth.of(lag, Duration.ofMillis(20));
    assertThat(health.p99Ms()).isBetween(49.9, 50.1);
    assertThat(health.saturated()).isTrue();
    assertThat(InjectorHealth.of(lag, Duration.ofMillis(60)).saturated()).isFalse();
  }

  @Test
  void oneLateTickOfAShortRunIsNoSaturation() {
    Histogram lag = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < 48; i++) {
      lag.recordValue(200); // 0.2 ms
    }
    lag.recordValue(22_400); // the machine scheduled something else: its p99 is this one tick
    InjectorHealth health = InjectorHealth.of(lag, Duration.ofMillis(20));
    assertThat(health.p99Ms()).isGreaterThan(20);
    assertThat(health.saturated()).isFalse();
    // recorded so that the report can say why a p99 above the threshold passed
    assertThat(health.lateTicks()).isEqualTo(1);
    assertThat(health.eventLoops()).isEqualTo(1);
    lag.recordValue(25_000); // a second late tick: lagging again and again
    assertThat(InjectorHealth.of(lag, Duration.ofMillis(20)).saturated()).isTrue();
    // two event loops: one stall delays a tick of each, so it takes two late ticks per loop
    InjectorHealth twoLoops = InjectorHealth.of(lag, Duration.ofMillis(20), 0, 2);
    assertThat(twoLoops.lateTicks()).isEqualTo(2);
    assertThat(twoLoops.eventLoops()).isEqualTo(2);
    assertThat(twoLoops.saturated()).isFalse();
  }

  private static final long MS = 1_000_000L;

  /** Two event loops ticking every 10 ms from 0 to {@code lengthMs}, with the given lag. */
  private static InjectorLagMonitor.JudgedTicks ticks(
      long lengthMs, java.util.function.LongUnaryOperator lagMsAt) {
    InjectorLagMonitor.JudgedTicks ticks = new InjectorLagMonitor.JudgedTicks(0);
    for (long at = 10; at <= lengthMs; at += 10) {
      ticks.record(at * MS, lagMsAt.applyAsLong(at) * MS);
      ticks.record(at * MS, lagMsAt.applyAsLong(at) * MS);
    }
    return ticks;
  }

  @Test
  void aShortHealthyRunIsNotFlaggedForItsWarmUp() {
    // 0.6 s, the JIT's first 200 ms up to 60 ms late (a queue run flagged before), then 1 ms
    InjectorLagMonitor.JudgedTicks ticks = ticks(600, at -> at < 200 ? 60 : 1);
    assertThat(ticks.warmUpNanos(600 * MS)).isEqualTo(300 * MS);
    InjectorHealth health = InjectorHealth.of(ticks.after(600 * MS), Duration.ofMillis(20), 300);
    assertThat(health.saturated()).isFalse();
    assertThat(health.p99Ms()).isLessThan(2);
    assertThat(health.ticks()).isEqualTo(62); // 2 loops x the ticks at 300, 310 ... 600 ms
    // Counting the warm-up, as before, flagged it.
    assertThat(InjectorHealth.of(ticks.after(0), Duration.ofMillis(20)).saturated()).isTrue();
  }

  @Test
  void aStarvedInjectorIsStillFlaggedAfterItsWarmUp() {
    // late by 40 ms all along: short or long, the run is saturated
    assertThat(
            InjectorHealth.of(ticks(600, at -> 40).after(600 * MS), Duration.ofMillis(20))
                .saturated())
        .isTrue();
    InjectorLagMonitor.JudgedTicks longRun = ticks(30_000, at -> at < 5_000 ? 1 : 40);
    assertThat(longRun.warmUpNanos(30_000 * MS)).isEqualTo(5_000 * MS); // at most 5 s
    assertThat(InjectorHealth.of(longRun.after(30_000 * MS), Duration.ofMillis(20)).saturated())
        .isTrue();
    // a long run whose lag was only in its first 5 s is not
    InjectorLagMonitor.JudgedTicks warmOnly = ticks(30_000, at -> at < 4_000 ? 100 : 1);
    assertThat(InjectorHealth.of(warmOnly.after(30_000 * MS), Duration.ofMillis(20)).saturated())
        .isFalse();
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
