package io.fusillade.reports.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.SyntheticRecord;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.Verdict;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The period-over-period report of a scheduled history: a run every 4 hours for three days, written
 * by {@link SyntheticRecord}, cut into 24-hour periods that end at {@link #UNTIL}.
 */
class PeriodReportTest {
  /** The end of the latest period. */
  static final Instant UNTIL = Instant.parse("2026-11-27T10:00:00Z");

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path history;

  static PeriodReport report;

  /**
   * Three tests: {@code accounts.yml} (a workload) runs every 4 hours for 3 days, its p99 doubled
   * in the last 24 hours; {@code io.example.Stopped} ran only in the previous period; {@code
   * topic.yml} delivers to a topic, exactly before, with 3 losses in the last period.
   */
  @BeforeAll
  static void writeHistory() throws Exception {
    for (int i = 0; i < 18; i++) { // 18 runs, 4 hours apart: 10:00 three days ago to 06:00 today
      Instant start = UNTIL.minus(Duration.ofHours(72 - 4L * i));
      boolean latest = !start.isBefore(UNTIL.minus(Duration.ofHours(24)));
      SyntheticRecord.run()
          .parameter("workload", "workloads/accounts.yml")
          .start(start.toEpochMilli())
          .seed(i)
          .median(latest ? 4_000 : 2_000)
          .write(history, "accounts-" + i);
    }
    for (int i = 0; i < 3; i++) {
      SyntheticRecord.run()
          .simulation("io.example.Stopped")
          .start(UNTIL.minus(Duration.ofHours(40 - i)).toEpochMilli())
          .seed(100 + i)
          .write(history, "stopped-" + i);
    }
    for (int i = 0; i < 4; i++) {
      boolean latest = i >= 2;
      SyntheticRecord.run()
          .parameter("workload", "topic.yml")
          .start(UNTIL.minus(Duration.ofHours(44 - 12L * i)).toEpochMilli())
          .seed(200 + i)
          .health("topic.events", topic(10_000, latest && i == 3 ? 3 : 0))
          .write(history, "topic-" + i);
    }
    SyntheticRecord.run() // after the end: not in any period
        .parameter("workload", "workloads/accounts.yml")
        .start(UNTIL.plusSeconds(60).toEpochMilli())
        .median(50_000)
        .write(history, "accounts-later");
    List<RunData> runs = RunMetrics.load(List.of(history));
    report =
        PeriodReport.of(
            runs,
            Period.parse("24h"),
            UNTIL,
            history.toString(),
            Comparison.Settings.DEFAULTS,
            ChangePoints.Settings.DEFAULTS);
  }

  /** {@code run.json}'s health {@code topic.<T>} with the delivery counts the verifier writes. */
  static Map<String, Object> topic(long acknowledged, long lost) {
    Map<String, Object> delivery = new LinkedHashMap<>();
    delivery.put("acknowledged", acknowledged);
    delivery.put("received", acknowledged - lost);
    delivery.put("lost", lost);
    delivery.put("duplicated", 0);
    delivery.put("outOfOrder", 0);
    Map<String, Object> health = new LinkedHashMap<>();
    health.put("partitions", 3);
    health.put("consumers", 1);
    health.put("delivery", delivery);
    return health;
  }

  static PeriodReport.TestReport test(String name) {
    return report.tests().stream().filter(t -> t.test().equals(name)).findFirst().orElseThrow();
  }

  static PeriodReport.MetricRow metric(PeriodReport.TestReport t, String name) {
    return t.metrics().stream().filter(m -> m.metric().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void theRunsFallIntoTheirPeriodsPerTest() {
    assertThat(report.tests())
        .extracting(PeriodReport.TestReport::test)
        .containsExactly("accounts.yml", "io.example.Stopped", "topic.yml");
    PeriodReport.TestReport accounts = test("accounts.yml");
    // [06:00 yesterday... ] 24 h = 6 runs each side; the run after the end is in neither
    assertThat(accounts.current().runIds())
        .containsExactly(
            "accounts-12",
            "accounts-13",
            "accounts-14",
            "accounts-15",
            "accounts-16",
            "accounts-17");
    assertThat(accounts.previous().runIds()).hasSize(6).startsWith("accounts-6");
    assertThat(report.from()).isEqualTo(UNTIL.minus(Duration.ofHours(24)));
    assertThat(report.previousFrom()).isEqualTo(UNTIL.minus(Duration.ofHours(48)));
  }

  @Test
  void aSlowerPeriodIsWorseAndItsLineStatesTheRule() {
    PeriodReport.TestReport accounts = test("accounts.yml");
    PeriodReport.MetricRow p99 = metric(accounts, "p99");
    assertThat(p99.verdict()).isEqualTo(Verdict.WORSE);
    assertThat(p99.change()).isBetween(0.8, 1.2); // 2 ms → 4 ms medians: about twice
    assertThat(p99.rule()).startsWith("Welch's t-test p").contains("< α 0.05 and the change +");
    assertThat(p99.rule()).endsWith("beyond the 5% threshold");
    PeriodReport.MetricRow rate = metric(accounts, "rate");
    assertThat(rate.verdict()).isNotEqualTo(Verdict.WORSE);
    assertThat(rate.rule()).startsWith("Welch's t-test");
    assertThat(accounts.metrics())
        .extracting(PeriodReport.MetricRow::metric)
        .contains("rate", "p50", "p99", "errors")
        .doesNotContain("mean", "p90", "p99.9");
    assertThat(report.anyWorse()).isTrue();
  }

  @Test
  void theChangePointThatBeginsInThisPeriodIsReportedWithItsRule() {
    PeriodReport.TestReport accounts = test("accounts.yml");
    assertThat(accounts.changePoints())
        .filteredOn(c -> c.metric().equals("p99"))
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.runId()).isEqualTo("accounts-12"); // the first slow run
              assertThat(c.verdict()).isEqualTo(Verdict.WORSE);
              assertThat(c.rule())
                  .startsWith("E-divisive change point, permutation p")
                  .contains("metrics, Bonferroni")
                  .endsWith("beyond the 5% threshold");
            });
  }

  @Test
  void aPeriodWithoutRunsIsSaidNotDropped() {
    PeriodReport.TestReport stopped = test("io.example.Stopped");
    assertThat(stopped.current().empty()).isTrue();
    assertThat(stopped.previous().runIds()).hasSize(3);
    assertThat(stopped.notes()).contains("no run in this period (24h up to the end)");
    assertThat(metric(stopped, "p99").verdict()).isNull();
    assertThat(metric(stopped, "p99").rule()).isEqualTo("no run of this period has this metric");
    assertThat(stopped.worseCount()).isZero();
    assertThat(PeriodText.test(stopped))
        .contains("Runs: no run this period, 3 runs the previous one.")
        .contains("- no run in this period (24h up to the end)")
        .contains("p99: ")
        .contains("- p99: ")
        .contains(" → - ms (-): not compared — no run of this period has this metric");
  }

  @Test
  void deliveryIsSummedPerPeriodAndALossIsWorse() {
    PeriodReport.TestReport topic = test("topic.yml");
    assertThat(topic.deliveries())
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.topic()).isEqualTo("events");
              assertThat(d.previous().acknowledged()).isEqualTo(20_000);
              assertThat(d.previous().exact()).isTrue();
              assertThat(d.current().acknowledged()).isEqualTo(20_000);
              assertThat(d.current().lost()).isEqualTo(3);
              assertThat(d.current().ratio()).isEqualTo(19_997 / 20_000.0);
              assertThat(d.verdict()).isEqualTo(Verdict.WORSE);
              assertThat(d.rule())
                  .isEqualTo(
                      "not exact in this period, exact before (exact: no acknowledged message"
                          + " lost, duplicated or out of order in any run of the period)");
            });
    // 4 runs: too few for a change point, and said so
    assertThat(topic.notes())
        .anySatisfy(n -> assertThat(n).startsWith("change points: 4 completed runs"));
    // 2 runs a side: Welch's test is defined; fewer would be said in the rule
    assertThat(metric(topic, "p99").rule()).startsWith("Welch's t-test");
  }

  @Test
  void theMarkdownHasAVerdictLineWithItsRuleForEveryVerdict() {
    String md = PeriodText.markdown(report);
    assertThat(md)
        .startsWith(
            "# Fusillade period report: 24h to 2026-11-27 10:00 UTC against the 24h before\n")
        .contains("This period: 2026-11-26 10:00 – 2026-11-27 10:00 UTC; the previous: 2026-11-25")
        .contains("Verdict: WORSE: ")
        .contains("## accounts.yml")
        .contains("## io.example.Stopped")
        .contains(
            "- delivery [events]: acknowledged 20,000 → 20,000, received 100.0000% → 99.9850%");
    for (String line : md.lines().filter(l -> l.startsWith("- ") && l.contains(": ")).toList()) {
      if (line.contains("WORSE")
          || line.contains("no significant change")
          || line.contains("better")) {
        assertThat(line).as("a verdict line states its rule").contains(" — ");
      }
    }
    assertThat(md).doesNotContain("accounts-later");
  }

  @Test
  void theJsonHoldsTheSameVerdictsAndNoNaN() throws Exception {
    String text = PeriodText.json(report);
    assertThat(text).doesNotContain("NaN").doesNotContain("Infinity");
    JsonNode root = JSON.readTree(text);
    assertThat(root.path("period").asText()).isEqualTo("24h");
    assertThat(root.path("worse").asBoolean()).isTrue();
    assertThat(root.path("until").asText()).isEqualTo("2026-11-27T10:00:00Z");
    JsonNode accounts = root.path("tests").get(0);
    assertThat(accounts.path("test").asText()).isEqualTo("accounts.yml");
    assertThat(accounts.path("current").path("runs")).hasSize(6);
    JsonNode p99 = null;
    for (JsonNode m : accounts.path("metrics")) {
      if (m.path("metric").asText().equals("p99")) {
        p99 = m;
      }
    }
    assertThat(p99).isNotNull();
    assertThat(p99.path("verdict").asText()).isEqualTo("worse");
    assertThat(p99.path("rule").asText()).startsWith("Welch's t-test");
    assertThat(p99.path("p").asDouble()).isLessThan(0.05);
    JsonNode stopped = root.path("tests").get(1);
    assertThat(stopped.path("current").path("runs")).isEmpty();
    assertThat(stopped.path("metrics").get(0).path("current").isNull()).isTrue();
  }

  @Test
  void aPeriodIsAWholeNumberOfMinutesHoursOrDays() {
    assertThat(Period.parse("24h").length()).isEqualTo(Duration.ofHours(24));
    assertThat(Period.parse("7d").length()).isEqualTo(Duration.ofDays(7));
    assertThat(Period.parse("30m").length()).isEqualTo(Duration.ofMinutes(30));
    for (String bad : new String[] {"24x", "0h", "-4h", "", "4.5h", "24"}) {
      assertThatThrownBy(() -> Period.parse(bad))
          .as(bad)
          .isInstanceOf(FusilladeException.class)
          .hasMessageStartingWith("--period: '" + bad + "' is not a period");
    }
  }

  @Test
  void aTemplateFillsItsNamedFieldsAndRefusesAnUnknownOne() throws Exception {
    Path template = history.resolve("message.txt");
    Files.writeString(
        template,
        "{{title}}\n{{verdict}}\n{{summary}}\n({{tests}} tests, {{worse}} worse, {{period}} from {{from}} to {{until}})\n");
    String text = ChatMessage.template(template).text(report);
    assertThat(text)
        .startsWith("Fusillade period report: 24h to 2026-11-27 10:00 UTC")
        .contains("\nWORSE: ")
        .contains("- accounts.yml: 6 runs this period, 6 the previous one: ")
        .contains("  - p99: ")
        .contains("- io.example.Stopped: 0 runs this period, 3 the previous one: nothing worse")
        .endsWith(
            "(3 tests, "
                + report.tests().stream().mapToLong(PeriodReport.TestReport::worseCount).sum()
                + " worse, 24h from 2026-11-26 10:00 to 2026-11-27 10:00)\n");
    JsonNode body = JSON.readTree(ChatMessage.template(template).body(report));
    assertThat(body.path("text").asText()).isEqualTo(text);

    Path bad = history.resolve("bad.txt");
    Files.writeString(bad, "{{title}}\nrate: {{rate}}\n");
    assertThatThrownBy(() -> ChatMessage.template(bad))
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            bad
                + " line 2: unknown field {{rate}} (the fields: from, history, period,"
                + " report, summary, tests, title, until, verdict, worse)");
    assertThatThrownBy(() -> ChatMessage.template(history.resolve("missing.txt")))
        .hasMessageStartingWith("--notify-template: no such file: ");
  }
}
