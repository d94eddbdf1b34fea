package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.Latencies;
import io.fusillade.record.RunStatus;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SyntheticRecord;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class ReportTest {
  @TempDir Path base;

  @Test
  void mergingTwoInjectorsGivesThePercentilesOfOneHistogramOfAllValues() throws Exception {
    SyntheticRecord a = SyntheticRecord.run().seed(1).median(2_000).rate(300).keepValues();
    SyntheticRecord b =
        SyntheticRecord.run().seed(2).median(9_000).rate(200).ko(0.1).keepValues().pid(4243);
    Path one = a.write(base, "inj-1");
    Path two = b.write(base, "inj-2");
    RunData merged = RunData.load(List.of(one, two));

    Histogram all = Latencies.newHistogram();
    List<Long> values = new ArrayList<>();
    values.addAll(valuesOf(a));
    values.addAll(valuesOf(b));
    values.forEach(all::recordValue);
    Histogram mergedQ = merged.requests().get("q").all();
    assertThat(mergedQ.getTotalCount()).isEqualTo(values.size()).isEqualTo(5_000);
    for (double p : new double[] {50, 90, 95, 99, 99.9, 100}) {
      assertThat(mergedQ.getValueAtPercentile(p))
          .as("p" + p)
          .isEqualTo(all.getValueAtPercentile(p));
    }
    // counts summed second by second: 300 + 200 per second
    assertThat(merged.completedAll()).containsOnly(500L);
    assertThat(merged.rate("q")).isEqualTo(500.0);
    assertThat(merged.requests().get("q").sent()).isEqualTo(5_000);
  }

  private static List<Long> valuesOf(SyntheticRecord r) throws Exception {
    var field = SyntheticRecord.class.getDeclaredField("written");
    field.setAccessible(true);
    @SuppressWarnings("unchecked")
    Map<String, List<Long>> written = (Map<String, List<Long>>) field.get(r);
    return written.get("q");
  }

  @Test
  void aKilledRunStillGivesAReportMarkedIncompleteAndFailsRunCompleted() throws Exception {
    Path dir = SyntheticRecord.run().status("running").seconds(5).write(base, "killed");
    Report report = Report.create(List.of(dir), List.of("p99 < 1s"));
    assertThat(report.run().status()).isEqualTo(RunStatus.INCOMPLETE);
    assertThat(report.results().get(0).passed()).isFalse();
    assertThat(report.results().get(1).passed()).isTrue();
    assertThat(report.anyFailed()).isTrue();
    Path out = base.resolve("out");
    report.write(out);
    String html = Files.readString(out.resolve("index.html"));
    assertThat(html).contains("id=\"incomplete\"").contains("INCOMPLETE");
    assertThat(Files.readString(out.resolve("summary.json"))).contains("\"incomplete\" : true");
  }

  /**
   * Every status but completed fails "run completed" with the status and its reason, in the console
   * text, summary.json, a failing JUnit case, and the exit code ({@link Report#anyFailed}).
   */
  @ParameterizedTest
  @CsvSource({
    "completed, , true, status completed",
    "failed, no request was sent, false, status failed: no request was sent",
    "failed, Connection refused, false, status failed: Connection refused",
    "aborted, the JVM shut down before the run ended, false, status aborted: the JVM shut down",
    "running, , false, status incomplete: the process ended before the run closed"
  })
  void everyStatusButCompletedFailsRunCompletedWithItsReason(
      String status, String reason, boolean passes, String measured) throws Exception {
    Path dir = SyntheticRecord.run().status(status, reason).seconds(3).write(base, status);
    Report report = Report.create(List.of(dir), List.of());
    CheckResult completed = report.results().get(0);
    assertThat(completed.check()).isEqualTo(Report.RUN_COMPLETED);
    assertThat(completed.passed()).isEqualTo(passes);
    assertThat(completed.measured()).startsWith(measured);
    assertThat(report.anyFailed()).isEqualTo(!passes);
    assertThat(report.consoleText())
        .contains((passes ? "passed: " : "FAILED: ") + "run completed — " + measured)
        .contains(
            passes
                ? "the run ended normally"
                : "only a completed run passes (failed, aborted and incomplete ones fail)");
    assertThat(report.summaryJson().path("passed").asBoolean()).isEqualTo(passes);
    assertThat(report.summaryJson().path("status").asText())
        .isEqualTo(status.equals("running") ? "incomplete" : status);
    if (reason != null) {
      assertThat(report.summaryJson().path("statusReason").asText()).isEqualTo(reason);
    }
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(report.junitXml().getBytes(StandardCharsets.UTF_8)));
    assertThat(doc.getDocumentElement().getAttribute("failures")).isEqualTo(passes ? "0" : "1");
    Element runCase = (Element) doc.getElementsByTagName("testcase").item(0);
    assertThat(runCase.getAttribute("name")).isEqualTo("run completed");
    NodeList failure = runCase.getElementsByTagName("failure");
    assertThat(failure.getLength()).isEqualTo(passes ? 0 : 1);
    if (!passes) {
      assertThat(((Element) failure.item(0)).getAttribute("message")).contains(measured);
    }
  }

  @Test
  void aRecordOfAnOlderVersionIsJudgedAgainstItsTargetRateParameter() throws Exception {
    // Older versions wrote the target as targetRate (topic steps) beside an unrelated rate.
    Path dir =
        SyntheticRecord.run()
            .seconds(60)
            .rate(100)
            .parameter("rate", 5)
            .parameter("targetRate", 100)
            .write(base, "old");
    CheckResult result =
        Report.create(List.of(dir), List.of("rate >= 99% of target")).results().stream()
            .filter(r -> r.check().equals("rate >= 99% of target"))
            .findFirst()
            .orElseThrow();
    assertThat(result.passed()).isTrue();
    assertThat(result.measured()).isEqualTo("rate = 100/s, 100% of targetRate 100");
  }

  @Test
  void aRunTooShortForASteadyStateFailsItsRateChecksSayingSoNotWithItsStartUpRate()
      throws Exception {
    // Two flush intervals: the rate over them would be the start-up and the drain.
    Path dir =
        SyntheticRecord.run().seconds(2).rate(100).parameter("rate", 100).write(base, "short");
    Path longer =
        SyntheticRecord.run().seconds(3).rate(100).parameter("rate", 100).write(base, "longer");
    List<String> checks = List.of("rate >= 95% of target", "rate >= 10/s for \"q\"");
    List<CheckResult> rates =
        Report.create(List.of(dir), checks).results().stream()
            .filter(r -> checks.contains(r.check()))
            .toList();
    assertThat(rates).hasSize(2);
    for (CheckResult result : rates) {
      assertThat(result.passed()).as(result.message()).isFalse();
      assertThat(result.measured()).isEqualTo("no steady state");
      assertThat(result.message()).contains("too short to judge a rate; run longer");
    }
    // an injector of the same test with a steady state and another name: still too short
    Path other =
        SyntheticRecord.run()
            .seconds(10)
            .names(List.of("other"))
            .parameter("rate", 100)
            .pid(4243)
            .write(base, "other");
    assertThat(rateCheck(List.of(dir, other), "rate >= 10/s for \"q\"").measured())
        .isEqualTo("no steady state");
    // ...while a short injector that sent none of them does not stop the others' rate judged
    Path steady =
        SyntheticRecord.run().seconds(10).rate(100).parameter("rate", 100).write(base, "steady");
    Path shortOther =
        SyntheticRecord.run()
            .seconds(2)
            .names(List.of("other"))
            .parameter("rate", 100)
            .pid(4244)
            .write(base, "short-other");
    assertThat(rateCheck(List.of(steady, shortOther), "rate >= 10/s for \"q\"").measured())
        .startsWith("rate = 100/s");
    // a record whose per-interval counts were lost: judged on its totals over its duration
    Path lost =
        SyntheticRecord.run().seconds(10).rate(100).parameter("rate", 100).write(base, "lost");
    Files.delete(lost.resolve("counters.jsonl"));
    assertThat(rateCheck(List.of(lost), "rate >= 95% of target").passed()).isTrue();
    for (CheckResult result : Report.create(List.of(longer), checks).results()) {
      if (!checks.contains(result.check())) {
        continue;
      }
      assertThat(result.passed()).as(result.message()).isTrue();
      assertThat(result.measured()).startsWith("rate = 100/s");
    }
  }

  private static CheckResult rateCheck(List<Path> records, String check) throws Exception {
    return Report.create(records, List.of(check)).results().stream()
        .filter(r -> r.check().equals(check))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void checksPassOrFailWithTheMeasuredValue() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .seconds(60)
            .rate(100)
            .ko(0.05)
            .parameter("rate", 100)
            .gauge("lag.steady", s -> 100 + (s * 37 % 11))
            .check("p99 < 50ms")
            .write(base, "checks");
    Path growing =
        SyntheticRecord.run()
            .seconds(60)
            .gauge("lag.orders", s -> 10.0 * s + (s * 37 % 11))
            .write(base, "growing");
    RunData run = RunData.load(dir);
    double p99 = run.allLatencies().getValueAtPercentile(99) / 1000.0;
    Report report =
        Report.create(
            List.of(dir),
            List.of(
                "p99 < 1ms",
                "errors < 1%",
                "errors < 10%",
                "rate >= 99% of target",
                "rate >= 150/s",
                "lag not growing",
                "injector not saturated",
                "p50 <= 200ms for \"q\"",
                "p50 < 1ms for \"nope\""));
    Map<String, CheckResult> byCheck = new java.util.HashMap<>();
    report.results().forEach(r -> byCheck.put(r.check(), r));
    assertThat(byCheck.get("p99 < 50ms").passed()).isTrue(); // declared in run.json
    assertThat(byCheck.get("p99 < 50ms").measured())
        .isEqualTo("p99 = " + io.fusillade.reports.format.Numbers.number(p99) + " ms");
    assertThat(byCheck.get("p99 < 1ms").passed()).isFalse();
    assertThat(byCheck.get("errors < 1%").passed()).isFalse();
    assertThat(byCheck.get("errors < 1%").measured()).startsWith("errors = ").endsWith("of 6000)");
    assertThat(byCheck.get("errors < 10%").passed()).isTrue();
    assertThat(byCheck.get("rate >= 99% of target").passed()).isTrue();
    assertThat(byCheck.get("rate >= 99% of target").measured()).contains("rate = 100/s");
    assertThat(byCheck.get("rate >= 150/s").passed()).isFalse();
    assertThat(byCheck.get("lag not growing").passed()).isTrue();
    assertThat(byCheck.get("injector not saturated").passed()).isTrue();
    assertThat(byCheck.get("p50 <= 200ms for \"q\"").passed()).isTrue();
    assertThat(byCheck.get("p50 < 1ms for \"nope\"").passed()).isFalse();
    assertThat(byCheck.get("p50 < 1ms for \"nope\"").measured())
        .isEqualTo(
            "no request or metric named \"nope\" (requests: \"q\"; metrics: \"injector.lag\")");

    Report lag = Report.create(List.of(growing), List.of("lag not growing"));
    assertThat(lag.results().get(1).passed()).isFalse();
    assertThat(lag.results().get(1).measured()).contains("lag.orders growing");
  }

  @Test
  void theTopicProtocolsLagGaugesAreWhatLagNotGrowingJudges() throws Exception {
    Path steady =
        SyntheticRecord.run()
            .seconds(60)
            .gauge("topic.orders.lag", s -> 100 + (s * 37 % 11))
            .write(base, "topic-steady");
    Path growing =
        SyntheticRecord.run()
            .seconds(60)
            .gauge("topic.orders.lag", s -> 10.0 * s + (s * 37 % 11))
            .write(base, "topic-growing");
    assertThat(Report.create(List.of(steady), List.of("lag not growing")).results().get(1).passed())
        .isTrue();
    Report lag = Report.create(List.of(growing), List.of("lag not growing"));
    assertThat(lag.results().get(1).passed()).isFalse();
    assertThat(lag.results().get(1).measured()).contains("topic.orders.lag growing");
  }

  @Test
  void junitXmlHasSurefiresShape() throws Exception {
    Path dir = SyntheticRecord.run().ko(0.05).write(base, "junit");
    Report report = Report.create(List.of(dir), List.of("errors < 1%", "p99 < 1s"));
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(report.junitXml().getBytes(StandardCharsets.UTF_8)));
    Element suite = doc.getDocumentElement();
    assertThat(suite.getTagName()).isEqualTo("testsuite");
    for (String attribute : List.of("name", "tests", "failures", "errors", "skipped", "time")) {
      assertThat(suite.hasAttribute(attribute)).as(attribute).isTrue();
    }
    assertThat(suite.getAttribute("tests")).isEqualTo("3");
    assertThat(suite.getAttribute("failures")).isEqualTo("1");
    assertThat(Double.parseDouble(suite.getAttribute("time"))).isEqualTo(10.0);
    NodeList cases = suite.getElementsByTagName("testcase");
    assertThat(cases.getLength()).isEqualTo(3);
    int failures = 0;
    for (int i = 0; i < cases.getLength(); i++) {
      Element c = (Element) cases.item(i);
      assertThat(c.getParentNode()).isSameAs(suite);
      assertThat(c.getAttribute("name")).isNotBlank();
      assertThat(c.getAttribute("classname")).isEqualTo("fusillade.SyntheticSimulation");
      Double.parseDouble(c.getAttribute("time"));
      NodeList failure = c.getElementsByTagName("failure");
      if (failure.getLength() > 0) {
        failures++;
        Element f = (Element) failure.item(0);
        assertThat(c.getAttribute("name")).isEqualTo("errors < 1%");
        assertThat(f.getAttribute("message")).contains("errors = ");
        assertThat(f.getAttribute("type")).isNotBlank();
      }
    }
    assertThat(failures).isEqualTo(1);
  }

  @Test
  void theHtmlIsSelfContainedAndHasItsCharts() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .names(List.of("a <b>", "c & d"))
            .gauge("system.cpu.user", s -> 20)
            .gauge("system.cpu.steal", s -> 1)
            .gauge("lag.x", s -> s)
            .gauge("directory.kafka.bytes", s -> 1e6 * (s + 1))
            .gauge("directory.kafka.use", s -> 10.0 * s)
            .parameter("rate", 200)
            .write(base, "html");
    Report report = Report.create(List.of(dir), List.of());
    report.write(base.resolve("html-out"));
    String html = Files.readString(base.resolve("html-out").resolve("index.html"));
    assertThat(html).doesNotContain("http:").doesNotContain("https:").doesNotContain("<script");
    assertThat(html).doesNotContain("src=");
    // the one linked resource is the stylesheet beside it (Jenkins' CSP drops inline styles)
    assertThat(html.split("<link", -1).length - 1).isEqualTo(1);
    assertThat(html).contains("<link rel=\"stylesheet\" href=\"report.css\">");
    assertThat(base.resolve("html-out").resolve("report.css")).exists();
    assertThat(html).contains("a &lt;b&gt;").doesNotContain("a <b>");
    assertThat(html.split("<svg", -1).length - 1).isGreaterThanOrEqualTo(7);
    assertThat(html).contains("<polyline").contains("Consumer lag").contains("CPU, whole machine");
    // a disk's use in % has a chart of its own, not the data's in MB
    assertThat(html)
        .contains("Local servers&#39; data on disk")
        .contains("Local servers&#39; disks used");
  }
}
