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
 * The chain on a simulated record, fed second by second as the recorder would: a topic whose writes
 * complete at any rate up to a capacity, whose readers see each message {@code 2 ms + rate / 100}
 * ms after it was written, and whose read lag grows by a given amount a second. The idle step runs
 * first at its trickle, the search then runs untouched, and the last step runs at the share of what
 * it found.
 */
class LimitChainWatchTest {
  private final List<String> events = new ArrayList<>();
  private final List<Double> rates = new ArrayList<>();
  private int finishes;
  private LimitResult done;

  private static final LimitSettings SEARCH =
      LimitSettings.DEFAULTS
          .withFrom(100)
          .withMax(400)
          .withStep(Duration.ofSeconds(4))
          .withWarmUp(0.25)
          .withSlo(List.of("errors < 1%", "lag not growing"));

  private LimitChainWatch watch(LimitChain chain) {
    rates.add(chain.idleRate()); // the arrivals start at the idle rate
    return new LimitChainWatch(
        SEARCH.withChain(chain),
        (kind, target, detail) -> events.add(kind + " " + target + " " + detail),
        new LimitWatch.Pace() {
          @Override
          public void rate(double perSecond) {
            rates.add(perSecond);
          }

          @Override
          public void pause() {}

          @Override
          public boolean drained() {
            return true;
          }

          @Override
          public void finish() {
            finishes++;
          }
        },
        20,
        result -> done = result);
  }

  /** One second at the current rate, {@code lagGrowth} more messages behind than the last. */
  private void second(LimitChainWatch watch, double elapsed, double lagGrowth, long errors) {
    double rate = rates.get(rates.size() - 1);
    Histogram ok = Latencies.newHistogram();
    ok.recordValueWithCount(5_000, Math.max(1, Math.round(rate) - errors));
    Histogram ko = errors > 0 ? Latencies.newHistogram() : null;
    if (ko != null) {
      ko.recordValueWithCount(5_000, errors);
    }
    watch.request(
        "write t", Math.round(rate), ok, ko, errors > 0 ? Map.of("disk full", errors) : Map.of());
    Histogram e2e = Latencies.newHistogram();
    e2e.recordValueWithCount(Math.round((2 + rate / 100) * 1000), Math.max(1, Math.round(rate)));
    watch.metric("e2e t", e2e);
    watch.gauge("topic.t.lag", lagGrowth * elapsed);
    watch.intervalEnd(0, elapsed);
  }

  private void runToTheEnd(LimitChainWatch watch, double laterLagGrowth) {
    double elapsed = 0;
    watch.intervalEnd(0, ++elapsed); // a second before the users start: no step
    for (int s = 0; s < 200 && finishes == 0; s++) {
      boolean latencyStep = done == null && rates.size() > 1 && isLatencyRate();
      second(watch, ++elapsed, latencyStep ? laterLagGrowth : 0, 0);
    }
  }

  private boolean isLatencyRate() {
    return events.stream().anyMatch(e -> e.startsWith("chain-step ") && e.endsWith(" latency"));
  }

  @Test
  void measuresTheIdleStepThenSearchesThenMeasuresAThirdOfTheRateFound() {
    LimitChainWatch watch =
        watch(new LimitChain(10, Duration.ofSeconds(4), 0.33, Duration.ofSeconds(4)));
    runToTheEnd(watch, 0);

    assertThat(finishes).as("the load stops once, after the last step").isEqualTo(1);
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.ABOVE_MAX);
    // idle 10/s, then the search 100, 200, 400 (sustained: above max), then 0.33 x 400
    assertThat(rates).containsExactly(10.0, 100.0, 200.0, 400.0, 0.33 * 400);
    Map<String, Object> chain = watch.toMap();
    @SuppressWarnings("unchecked")
    Map<String, Object> idle = (Map<String, Object>) chain.get("idleResult");
    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) chain.get("latencyResult");
    assertThat(idle).containsEntry("target", 10.0).containsEntry("passed", true);
    // 2 ms + 10/100 ms, within the histogram's precision
    assertThat((Double) idle.get("e2eP50Ms")).isBetween(2.09, 2.11);
    assertThat(latency)
        .containsEntry("target", 0.33 * 400)
        .containsEntry("base", 400.0)
        .containsEntry("passed", true);
    assertThat((String) latency.get("of")).contains("highest rate tried");
    assertThat((Double) latency.get("e2eP50Ms")).isBetween(3.31, 3.33);
    assertThat((String) latency.get("lag")).startsWith("not growing");
    assertThat(events).first().asString().isEqualTo("chain-step 10/s idle");
    assertThat(events).last().asString().startsWith("chain-step-end 132/s latency: passed");
    // the search's own steps never saw the idle step: its first starts at 100/s
    assertThat(done.steps().get(0).target()).isEqualTo(100.0);
  }

  @Test
  void aReadLagGrowingAtTheShareOfTheMaximumFailsThatStepSayingTheRule() {
    LimitChainWatch watch =
        watch(new LimitChain(10, Duration.ofSeconds(4), 0.5, Duration.ofSeconds(5)));
    runToTheEnd(watch, 50);

    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) watch.toMap().get("latencyResult");
    assertThat(latency).containsEntry("passed", false).containsEntry("target", 200.0);
    assertThat(latency.get("why").toString())
        .contains("read lag growing 50/s (rule: the read lag must not grow)");
  }

  @Test
  void aSearchThatFoundNoRateRunsNoStepAfterItAndSaysWhy() {
    LimitChainWatch watch =
        watch(new LimitChain(10, Duration.ofSeconds(3), 0.33, Duration.ofSeconds(3)));
    double elapsed = 0;
    // every write of the search fails: even its lowest rate does not hold
    for (int s = 0; s < 400 && finishes == 0; s++) {
      boolean idle = rates.size() == 1;
      second(watch, ++elapsed, 0, idle ? 0 : Math.max(1, Math.round(rates.get(rates.size() - 1))));
    }
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.BELOW_MIN);
    assertThat(finishes).isEqualTo(1);
    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) watch.toMap().get("latencyResult");
    assertThat(latency).containsEntry("passed", false);
    assertThat(latency.get("why").toString()).contains("not run", "below-min");
  }

  @Test
  void aRunEndingDuringTheIdleStepSaysSo() {
    LimitChainWatch watch =
        watch(new LimitChain(10, Duration.ofSeconds(10), 0.33, Duration.ofSeconds(3)));
    second(watch, 1, 0, 0);
    second(watch, 2, 0, 0);
    watch.closed(RunStatus.ABORTED);
    assertThat(done.verdict()).isEqualTo(LimitResult.Verdict.STOPPED);
    assertThat(finishes).isEqualTo(1);
    assertThat(watch.toMap().get("idleResult").toString()).contains("ended before the idle step");
  }

  @Test
  void aRunEndingDuringTheStepAfterTheSearchFailsItSayingSo() {
    LimitChainWatch watch =
        watch(new LimitChain(10, Duration.ofSeconds(3), 0.33, Duration.ofSeconds(30)));
    double elapsed = 0;
    for (int s = 0; s < 200 && !isLatencyRate(); s++) {
      second(watch, ++elapsed, 0, 0);
    }
    second(watch, ++elapsed, 0, 0);
    assertThat(watch.endNow().verdict()).isEqualTo(LimitResult.Verdict.ABOVE_MAX);
    @SuppressWarnings("unchecked")
    Map<String, Object> latency = (Map<String, Object>) watch.toMap().get("latencyResult");
    assertThat(latency).containsEntry("passed", false);
    assertThat(latency.get("why").toString()).contains("the run ended before the step did");
    assertThat(finishes).isEqualTo(1);
  }

  @Test
  void theStepAfterTheSearchIsAShareOfTheLimitOrOfWhatTheSystemSustainedBelowTheInjectorsLimit() {
    assertThat(
            LimitChainWatch.base(
                new LimitResult(LimitResult.Verdict.FOUND, 900.0, 900, null, List.of())))
        .isEqualTo(900.0);
    assertThat(
            LimitChainWatch.base(
                new LimitResult(LimitResult.Verdict.INJECTOR_LIMIT, null, 4000, null, List.of())))
        .isEqualTo(4000.0);
    assertThat(
            LimitChainWatch.base(
                new LimitResult(LimitResult.Verdict.UNSTABLE, null, 800, null, List.of())))
        .isNull();
    assertThat(
            LimitChainWatch.base(
                new LimitResult(LimitResult.Verdict.INJECTOR_LIMIT, null, 0, null, List.of())))
        .isNull();
  }
}
