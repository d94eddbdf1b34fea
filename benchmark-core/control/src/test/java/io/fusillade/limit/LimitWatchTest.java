package io.fusillade.limit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.Latencies;
import io.fusillade.record.RunStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * The watch on a simulated record: a server with a fixed capacity, fed second by second as the
 * recorder would, at the rates the watch sets.
 */
class LimitWatchTest {
  private final List<String> events = new ArrayList<>();
  private final List<Double> rates = new ArrayList<>();
  private boolean finished;
  private boolean paused;
  private LimitResult done;

  private LimitWatch watch(LimitSettings settings) {
    rates.add(settings.from());
    return new LimitWatch(
        settings,
        (kind, target, detail) -> events.add(kind + " " + target + " " + detail),
        new LimitWatch.Pace() {
          @Override
          public void rate(double perSecond) {
            paused = false;
            rates.add(perSecond);
          }

          @Override
          public void pause() {
            paused = true;
          }

          @Override
          public boolean drained() {
            return true;
          }

          @Override
          public void finish() {
            finished = true;
          }
        },
        20,
        result -> done = result);
  }

  /**
   * One second of a server that completes up to {@code capacity} requests a second at 10 ms and
   * queues the rest: the queue's wait adds to the latency, as it would from the due time. At a new
   * rate the arrivals not yet sent are dropped (the pacer starts a new schedule); what the lanes
   * hold, 100 at most, is still served, unless the watch paused to let it drain.
   */
  private final class Server {
    final double capacity;
    double backlog;
    double lastRate;

    /** Bytes the broker's disk holds per message a second sent: what retention keeps. */
    double diskPerRate;

    /**
     * The share, %, of a small disk that retention keeps per message a second sent: from 100%, the
     * disk is full and every write fails with the broker's disk error.
     */
    double diskPercentPerRate;

    Server(double capacity) {
      this.capacity = capacity;
    }

    void second(LimitWatch watch, double rate, double elapsed, double lagGrowth) {
      if (rate != lastRate) {
        backlog = Math.min(backlog, 100);
        lastRate = rate;
      }
      if (paused) {
        backlog = 0; // a second with nothing sent: what was in flight finished
        watch.intervalEnd(0, elapsed);
        return;
      }
      backlog = Math.max(0, backlog + rate - capacity);
      long completed = Math.round(Math.min(capacity, rate + backlog));
      Histogram ok = Latencies.newHistogram();
      long waitMicros = Math.round(backlog / capacity * 1_000_000);
      ok.recordValueWithCount(10_000 + waitMicros, Math.max(1, completed));
      watch.request("q", Math.round(rate), ok, null, Map.of());
      Histogram lag = Latencies.newHistogram();
      lag.recordValueWithCount(1_000, 100);
      watch.metric("injector.lag", lag);
      watch.gauge("topic.t.lag", lagGrowth * elapsed);
      if (diskPerRate > 0) {
        watch.gauge("directory.kafka.bytes", rate * diskPerRate);
      }
      if (diskPercentPerRate > 0) {
        double use = Math.min(100, rate * diskPercentPerRate);
        watch.gauge("directory.kafka.use", use);
        if (use >= 100) {
          Histogram ko = Latencies.newHistogram();
          ko.recordValueWithCount(10_000, Math.round(rate));
          watch.request("q", 0, null, ko, Map.of(DISK_FULL, Math.round(rate)));
        }
      }
      watch.intervalEnd(0, elapsed);
    }
  }

  @Test
  void findsTheCapacityOfAServerThatQueuesWhatItCannotServe() {
    LimitSettings settings = LimitSettings.DEFAULTS.withFrom(50).withStep(Duration.ofSeconds(10));
    LimitWatch watch = watch(settings);
    Server server = new Server(430);
    double elapsed = 0;
    // Two idle seconds before the users start: not part of any step.
    watch.intervalEnd(0, ++elapsed);
    watch.intervalEnd(0, ++elapsed);
    for (int s = 0; s < 600 && !finished; s++) {
      server.second(watch, rates.get(rates.size() - 1), ++elapsed, 0);
    }
    assertThat(finished).isTrue();
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(done.limit()).isBetween(430 / 1.05 / 1.05, 430.0);
    assertThat(done.steps().get(0).fromSeconds()).isEqualTo(2.0);
    assertThat(done.steps().get(0).toSeconds()).isEqualTo(12.0);
    assertThat(events).first().asString().isEqualTo("limit-step 50/s step 1 (ramp)");
    assertThat(events).last().asString().startsWith("limit-result found maximum sustainable rate");
    StepResult over =
        done.steps().stream().filter(s -> s.target() == 800).findFirst().orElseThrow();
    assertThat(over.passed()).isFalse();
    assertThat(String.join(",", over.why())).contains("rate", "latency growing");
  }

  @Test
  void afterAFailedStepNothingIsSentUntilItsRequestsFinished() {
    LimitWatch watch = watch(LimitSettings.DEFAULTS.withFrom(400).withStep(Duration.ofSeconds(5)));
    Server server = new Server(300);
    double elapsed = 0;
    for (int s = 0; s < 5; s++) {
      server.second(watch, 400, ++elapsed, 0);
    }
    assertThat(paused).as("400/s failed on a server of 300/s").isTrue();
    assertThat(rates).containsExactly(400.0);
    server.second(watch, 0, ++elapsed, 0);
    assertThat(paused).isFalse();
    assertThat(rates).containsExactly(400.0, 200.0);
    assertThat(events).last().asString().isEqualTo("limit-step 200/s step 2 (ramp)");
    assertThat(watch.steps().get(0).toSeconds()).isEqualTo(5.0);
  }

  @Test
  void aLagThatGrowsFailsAStepWhenTheObjectivesJudgeLag() {
    LimitSettings settings =
        LimitSettings.DEFAULTS
            .withFrom(100)
            .withStep(Duration.ofSeconds(10))
            .withSlo(List.of("lag not growing"));
    LimitWatch watch = watch(settings);
    Server server = new Server(1_000_000);
    double elapsed = 0;
    for (int s = 0; s < 10; s++) {
      server.second(watch, 100, ++elapsed, 50);
    }
    StepResult first = watch.steps().get(0);
    assertThat(first.lag()).startsWith("growing 50");
    assertThat(first.passed()).isFalse();
  }

  @Test
  void theDiskTestFindsTheFastestWritesWhoseRetainedDataFitsTheDisk() {
    // retention keeps 1 kB per message a second: 300/s fills a 300 kB disk
    LimitSettings settings =
        LimitSettings.DEFAULTS
            .withFrom(50)
            .withStep(Duration.ofSeconds(5))
            .withSlo(List.of("errors < 1%", "disk < 300kB"));
    LimitWatch watch = watch(settings);
    Server server = new Server(1_000_000);
    server.diskPerRate = 1000;
    double elapsed = 0;
    for (int s = 0; s < 600 && !finished; s++) {
      server.second(watch, rates.get(rates.size() - 1), ++elapsed, 0);
    }
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.FOUND);
    assertThat(done.limit()).isBetween(300 / 1.05 / 1.05, 300.0);
    assertThat(done.steps())
        .filteredOn(step -> step.target() >= 300)
        .isNotEmpty()
        .allSatisfy(step -> assertThat(step.why()).anyMatch(w -> w.startsWith("disk ")));

    LimitWatch blind = watch(settings.withSlo(List.of("disk < 80%")));
    Server unwatched = new Server(1_000_000);
    for (int s = 0; s < 5; s++) {
      unwatched.second(blind, 50, ++elapsed, 0);
    }
    assertThat(blind.steps().get(0).why())
        .singleElement()
        .asString()
        .startsWith("disk: no filesystem use measured");
  }

  /** The reason of a write to a broker whose disk filled, as the topic client counts it. */
  private static final String DISK_FULL =
      "server: broker 0's disk is full: Error while appending records to t-0: No space left on"
          + " device";

  @Test
  void aStepThatFillsTheDiskEndsTheSearchWithTheBrokersDiskErrorAndTheRateBelowIt() {
    assertThat(io.fusillade.record.FailureClass.of(DISK_FULL))
        .as("the server's failure, not the injector's")
        .isEqualTo(io.fusillade.record.FailureClass.SERVER);
    // retention keeps 0.25% of the disk per message a second: from 400/s the disk fills
    LimitSettings settings =
        LimitSettings.DEFAULTS
            .withFrom(50)
            .withStep(Duration.ofSeconds(5))
            .withSlo(List.of("disk not full"));
    LimitWatch watch = watch(settings);
    Server server = new Server(1_000_000);
    server.diskPercentPerRate = 0.25;
    double elapsed = 0;
    for (int s = 0; s < 600 && !finished; s++) {
      server.second(watch, rates.get(rates.size() - 1), ++elapsed, 0);
    }
    // 50, 100, 200 pass; 400 fills the disk, and a broker whose disk fills stops: the search ends
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.DISK_FULL);
    assertThat(done.limit()).isEqualTo(200.0);
    assertThat(done.steps())
        .extracting(StepResult::target)
        .containsExactly(50.0, 100.0, 200.0, 400.0);
    StepResult full = done.steps().get(3);
    assertThat(full.passed()).isFalse();
    assertThat(full.why())
        .contains("disk full: 100% used")
        .anyMatch(
            w ->
                w.matches(
                    "disk error: \\d+ writes failed with the server's disk error"
                        + " \\(server: broker 0's disk is full: .*No space left on device\\)"));
    assertThat(done.describe())
        .startsWith(
            "maximum rate that kept the disk below full 200/s (not confirmed: the disk"
                + " filled at 400/s");
    assertThat(LimitResult.fromMap(done.toMap()).limit()).isEqualTo(200.0);

    // with a margin, 'disk < 90%' fails the steps from 360/s before the disk fills: the search
    // bisects to the margin's rate
    rates.clear();
    finished = false;
    LimitWatch margin = watch(settings.withSlo(List.of("disk < 90%", "disk not full")));
    Server another = new Server(1_000_000);
    another.diskPercentPerRate = 0.25;
    for (int s = 0; s < 600 && !finished; s++) {
      another.second(margin, rates.get(rates.size() - 1), ++elapsed, 0);
    }
    assertThat(done.verdict()).isIn(LimitResult.Verdict.FOUND, LimitResult.Verdict.DISK_FULL);
    assertThat(done.limit()).isBetween(200.0, 360.0);

    LimitWatch blind = watch(settings);
    Server unwatched = new Server(1_000_000);
    for (int s = 0; s < 5; s++) {
      unwatched.second(blind, 50, ++elapsed, 0);
    }
    assertThat(blind.steps().get(0).why())
        .singleElement()
        .asString()
        .startsWith("disk not full: no disk use measured");
  }

  @Test
  void diskErrorsAreTheServersOwnWordsOfAFullDisk() {
    assertThat(LimitSlo.isDiskError(DISK_FULL)).isTrue();
    assertThat(
            LimitSlo.isDiskError(
                "KafkaStorageException: Disk error when trying to access log file on the disk."))
        .isTrue();
    assertThat(
            LimitSlo.isDiskError("delivery timeout: not acknowledged within delivery.timeout.ms"))
        .isFalse();
    assertThat(LimitSlo.isDiskError(null)).isFalse();
    assertThat(LimitSlo.parse(List.of("disk not full", "disk < 90%")).texts()).hasSize(2);
  }

  @Test
  void aRunThatEndsMidSearchKeepsItsStepsAsStopped() {
    LimitWatch watch = watch(LimitSettings.DEFAULTS.withStep(Duration.ofSeconds(5)));
    Server server = new Server(1_000_000);
    double elapsed = 0;
    for (int s = 0; s < 12; s++) {
      server.second(watch, rates.get(rates.size() - 1), ++elapsed, 0);
    }
    LimitResult result = watch.endNow();
    watch.closed(RunStatus.ABORTED);
    assertThat(result.verdict()).isEqualTo(LimitResult.Verdict.STOPPED);
    assertThat(result.steps()).hasSize(2);
    assertThat(result.sustained()).isEqualTo(200);
    assertThat(done).isSameAs(result);
  }
}
