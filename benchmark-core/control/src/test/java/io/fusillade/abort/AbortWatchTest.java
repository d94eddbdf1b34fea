package io.fusillade.abort;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The watch fed second by second as the recorder feeds it. */
class AbortWatchTest {
  private final List<String> reasons = new ArrayList<>();
  private double elapsed;

  private AbortWatch watch(String... rules) {
    return new AbortWatch(List.of(rules).stream().map(AbortRule::parse).toList(), reasons::add);
  }

  /** One second: {@code ok} OK requests of {@code latencyMs}, and KO by reason. */
  private void second(AbortWatch watch, int ok, double latencyMs, Map<String, Long> errors) {
    Histogram okLatencies = new Histogram(3);
    for (int i = 0; i < ok; i++) {
      okLatencies.recordValue(Math.round(latencyMs * 1000));
    }
    Histogram ko = new Histogram(3);
    errors.values().forEach(n -> ko.recordValueWithCount(1000, n));
    watch.request("q", ok + ko.getTotalCount(), okLatencies, ko, errors);
    elapsed += 1;
    watch.intervalEnd(0, elapsed);
  }

  @Test
  void errorsFromTheTwentiethSecondStopTheRunOneSecondLater() {
    AbortWatch watch = watch("errors > 5% over 5s");
    for (int s = 0; s < 20; s++) {
      second(watch, 100, 1, Map.of());
    }
    assertThat(reasons).isEmpty();
    // all 100 fail: over the last 5 s, 100 of 500 = 20%
    second(watch, 0, 0, Map.of("relation \"t\" does not exist", 100L));
    assertThat(reasons).containsExactly("errors 20.0% > 5% over 5s (at 21.0 s)");
    second(watch, 0, 0, Map.of("relation \"t\" does not exist", 100L));
    assertThat(reasons).as("reported once").hasSize(1);
  }

  @Test
  void theShareStaysUnderItsLimitWhenTheErrorsAreFew() {
    AbortWatch watch = watch("errors > 5% over 5s");
    for (int s = 0; s < 30; s++) {
      second(watch, 96, 1, Map.of("sqlstate 40001: could not serialize access", 4L));
    }
    assertThat(reasons).isEmpty();
  }

  @Test
  void theInjectorsOwnFailuresNeverAbortForTheSystem() {
    AbortWatch watch = watch("errors > 5% over 5s");
    for (int s = 0; s < 10; s++) {
      second(watch, 50, 1, Map.of("injector queue full", 50L));
    }
    assertThat(reasons).isEmpty();
  }

  @Test
  void aRuleWaitsForItsWholeWindow() {
    AbortWatch watch = watch("errors > 5% over 10s");
    for (int s = 0; s < 9; s++) {
      second(watch, 0, 0, Map.of("connection refused: 127.0.0.1:5432", 10L));
    }
    assertThat(reasons).isEmpty();
    second(watch, 0, 0, Map.of("connection refused: 127.0.0.1:5432", 10L));
    assertThat(reasons).containsExactly("errors 100.0% > 5% over 10s (at 10.0 s)");
  }

  @Test
  void aLatencyPercentileOverItsWindow() {
    AbortWatch watch = watch("p99 > 2s over 3s");
    for (int s = 0; s < 5; s++) {
      second(watch, 100, 5, Map.of());
    }
    assertThat(reasons).isEmpty();
    // one slow second of three: 100 of 300 at 3 s, so p99 is 3 s
    second(watch, 100, 3000, Map.of());
    assertThat(reasons)
        .singleElement()
        .asString()
        .startsWith("p99 300")
        .endsWith("> 2s over 3s (at 6.0 s)");
  }

  @Test
  void theFirstBrokenRuleIsTheReason() {
    AbortWatch watch = watch("p99 > 1s over 2s", "errors > 1% over 2s");
    second(watch, 10, 5000, Map.of("timeout", 10L));
    second(watch, 10, 5000, Map.of("timeout", 10L));
    assertThat(reasons).singleElement().asString().startsWith("p99 ");
  }
}
