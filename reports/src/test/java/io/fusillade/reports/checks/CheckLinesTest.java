package io.fusillade.reports.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.reports.report.Report;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every check line explains itself: {@code passed: CHECK — WHY}, where WHY states what was measured
 * and the rule that turned it into the verdict, so that no pass reads like a failure. One test per
 * kind of check, on records written by {@link SyntheticRecord}.
 */
class CheckLinesTest {
  @TempDir Path base;

  private static CheckResult check(RunData run, String check) {
    return CheckParser.parse(check).evaluate(run);
  }

  private static Map<String, Object> lag(
      double p99, boolean saturated, Long lateTicks, Integer loops) {
    Map<String, Object> lag = new LinkedHashMap<>();
    lag.put("ticks", 2950);
    lag.put("p50Ms", 0.2);
    lag.put("p99Ms", p99);
    lag.put("maxMs", 45.0);
    lag.put("thresholdMs", 20.0);
    lag.put("saturated", saturated);
    lag.put("warmUpMs", 5000.0);
    if (lateTicks != null) {
      lag.put("lateTicks", lateTicks);
      lag.put("eventLoops", loops);
    }
    return lag;
  }

  private RunData injector(String id, Map<String, Object> lag) throws Exception {
    return RunData.load(
        SyntheticRecord.run().seconds(30).rate(100).health("injectorLag", lag).write(base, id));
  }

  @Test
  void aPassedInjectorCheckWithAHighP99SaysWhyItPassed() throws Exception {
    // the issue's line: "passed: injector not saturated (injector lag p99 = 31.0 ms (threshold
    // 20.0 ms))" read like a failure
    CheckResult r = check(injector("few-late", lag(31, false, 2L, 2)), "injector not saturated");
    assertThat(r.passed()).isTrue();
    assertThat(r.message())
        .startsWith("passed: injector not saturated — lag p99 31.0 ms over 2,950 ticks")
        .contains("(the first 5.00 s left out)")
        .contains("is above 20.0 ms, but only 2 ticks were later than it")
        .contains(
            "saturated needs the p99 above 20.0 ms and at least 2 late ticks per event loop (4"
                + " for 2 loops)")
        .endsWith("no request failed for the injector's own reason");
  }

  @Test
  void aSaturatedInjectorSaysHowManyTicksWereLate() throws Exception {
    CheckResult r = check(injector("many-late", lag(31, true, 120L, 2)), "injector not saturated");
    assertThat(r.passed()).isFalse();
    assertThat(r.message())
        .startsWith("FAILED: injector not saturated — lag p99 31.0 ms")
        .contains("is above 20.0 ms and 120 ticks were later than it; saturated needs");
  }

  @Test
  void aHealthyInjectorIsBelowItsThresholdAndAnOldRecordWithoutLateTicksStillSaysTheRule()
      throws Exception {
    CheckResult healthy =
        check(injector("healthy", lag(0.8, false, 0L, 2)), "injector not saturated");
    assertThat(healthy.why())
        .startsWith("lag p99 0.800 ms over 2,950 ticks")
        .contains("is not above 20.0 ms (saturated needs the p99 above it)");

    CheckResult old = check(injector("old", lag(31, false, null, null)), "injector not saturated");
    assertThat(old.passed()).isTrue();
    assertThat(old.why())
        .contains("is above 20.0 ms, but too few ticks were later than it")
        .contains("at least 2 late ticks per event loop");
  }

  @Test
  void latencyLinesNameTheStatisticTheRequestsAndTheLimit() throws Exception {
    RunData run =
        RunData.load(
            SyntheticRecord.run()
                .seconds(10)
                .rate(100)
                .median(2000)
                .metric("e2e events", s -> 40_000)
                .write(base, "latency"));
    CheckResult all = check(run, "p99 < 1s");
    assertThat(all.message())
        .matches(
            "passed: p99 < 1s — p99 of all 1,000 requests \\(OK and KO\\) = [0-9.]+ ms, below"
                + " the limit 1,000 ms");
    CheckResult failed = check(run, "p50 < 1ms for \"q\"");
    assertThat(failed.message())
        .matches(
            "FAILED: p50 < 1ms for \"q\" — p50 of the 1,000 requests \"q\" \\(OK and KO\\) ="
                + " [0-9.]+ ms, not below the limit 1.00 ms");
    CheckResult metric = check(run, "max <= 1s for \"e2e events\"");
    assertThat(metric.why()).startsWith("max of the ").contains(" values of \"e2e events\" = ");
    assertThat(metric.why()).contains("at most the limit 1,000 ms");
    CheckResult unknown = check(run, "p99 < 1s for \"nope\"");
    assertThat(unknown.message())
        .startsWith("FAILED: p99 < 1s for \"nope\" — no request or metric named \"nope\"")
        .endsWith("nothing measured, nothing met");
  }

  @Test
  void errorAndRateLinesStateTheCountsTheShareAndTheLimit() throws Exception {
    RunData run =
        RunData.load(
            SyntheticRecord.run()
                .seconds(20)
                .rate(100)
                .ko(0.02)
                .koReasons("SQLState 57014: canceling statement")
                .parameter("rate", 100)
                .write(base, "errors"));
    CheckResult errors = check(run, "errors < 1%");
    assertThat(errors.passed()).isFalse();
    assertThat(errors.why())
        .matches(
            "errors = [0-9.]+%: [0-9]+ server- and network-class KO of 2,000 completed requests,"
                + " not below the limit 1.00%");
    CheckResult rate = check(run, "rate >= 95% of target");
    assertThat(rate.passed()).isTrue();
    assertThat(rate.why())
        .startsWith("steady-state rate = 100/s (completions per second over the whole flush")
        .endsWith("= 100% of rate 100, at least the limit 95.0/s (95.0% of rate)");
    CheckResult absolute = check(run, "rate > 200/s");
    assertThat(absolute.why()).endsWith(", not above the limit 200/s");
  }

  @Test
  void deliveryLagAndServerLinesStateTheirRule() throws Exception {
    Map<String, Object> delivery = new LinkedHashMap<>();
    delivery.put("acknowledged", 2000);
    delivery.put("received", 2000);
    delivery.put("lost", 0);
    delivery.put("duplicated", 0);
    delivery.put("outOfOrder", 0);
    delivery.put("exact", true);
    Map<String, Object> topic = new LinkedHashMap<>();
    topic.put("partitions", 2);
    topic.put("consumers", 1);
    topic.put("delivery", delivery);
    topic.put("drained", true);
    RunData run =
        RunData.load(
            SyntheticRecord.run()
                .seconds(40)
                .rate(50)
                .health("topic.events", topic)
                .gauge("topic.events.lag", s -> 100 + (s % 3))
                .gauge("server.db.cpu.steal", s -> 1)
                .write(base, "topics"));
    assertThat(check(run, "delivery exact").message())
        .isEqualTo(
            "passed: delivery exact — lost = 0, duplicated = 0, out of order = 0 of 2,000"
                + " acknowledged, 2,000 received; the rule: every message the broker acknowledged"
                + " received, none twice and none out of order within its producer and partition");
    CheckResult lag = check(run, "lag not growing");
    assertThat(lag.passed()).isTrue();
    assertThat(lag.why())
        .startsWith("topic.events.lag not growing over 36 s: Mann-Kendall p=")
        .contains("growth ")
        .contains(" the IQR ")
        .endsWith(
            "growing means a Mann-Kendall p below 0.01 and a growth over the run (Sen's slope"
                + " times its length) above the lag's interquartile range, the first 10% of"
                + " seconds left out");
    assertThat(check(run, "server cpu.steal < 5%").why())
        .isEqualTo(
            "mean cpu.steal: db 1.00 %; the mean over the run's seconds of every server's gauge"
                + " server.NAME.cpu.steal must be below 5.00 %");
  }

  @Test
  void theSameLinesReachTheConsoleJunitAndTheHtmlReport() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .seconds(30)
            .rate(100)
            .health("injectorLag", lag(31, false, 2L, 2))
            .write(base, "everywhere");
    Report report = Report.create(List.of(dir), List.of("injector not saturated"));
    CheckResult injector = report.results().get(1);
    assertThat(report.consoleText()).contains(injector.message());
    assertThat(report.junitXml())
        .contains(io.fusillade.reports.html.Html.escape(injector.message()));
    assertThat(report.summaryJson().path("checks").get(1).path("why").asText())
        .isEqualTo(injector.why());
    assertThat(io.fusillade.reports.html.ReportPage.render(report.run(), report.results(), "t"))
        .contains(io.fusillade.reports.html.Html.escape(injector.why()));
  }
}
