package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.record.RunFiles;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.checks.CheckResult;
import io.fusillade.reports.runs.FaultWindows;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SyntheticRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduled fault ({@code fault-start} and {@code fault-end} events) is a window of the run: a
 * red band on the time charts, a row of the Faults table, an entry of {@code summary.json} with the
 * good requests' recovery time, and what {@code recovery < 10s after "..."} judges.
 */
class FaultsReportTest {
  private static final long START = 1_700_000_000_000L;

  @TempDir Path base;

  /**
   * 60 s at 2 ms; broker 1 paused from 20.0 s to 25.0 s: requests fail during the pause and are
   * slow (20 ms) for four seconds after it, so the good requests are back in range at 29 s.
   */
  private Path pausedRun(String id) throws Exception {
    Path dir =
        SyntheticRecord.run()
            .start(START)
            .seconds(60)
            .rate(200)
            .median(s -> s >= 25 && s < 29 ? 20_000 : 2_000)
            .ko(s -> s >= 20 && s < 25 ? 0.5 : 0)
            .write(base, id);
    Files.writeString(
        dir.resolve(RunFiles.EVENTS),
        """
        {"epochMs":%d,"kind":"fault-start","target":"pause broker 1 for 5s","detail":"broker 1"}
        {"epochMs":%d,"kind":"fault-end","target":"pause broker 1 for 5s","detail":"paused, resumed"}
        """
            .formatted(START + 20_000, START + 25_000));
    return dir;
  }

  @Test
  void recoveryCountsFromTheFaultsEndToThreeSecondsInTheRangeFromBeforeIt() throws Exception {
    List<FaultWindows> faults = FaultWindows.of(RunData.load(pausedRun("paused")));
    assertThat(faults).hasSize(1);
    FaultWindows pause = faults.get(0);
    assertThat(pause.label()).isEqualTo("pause broker 1 for 5s");
    assertThat(pause.fromSeconds()).isEqualTo(20.0);
    assertThat(pause.toSeconds()).isEqualTo(25.0);
    assertThat(pause.outcome()).isEqualTo("paused, resumed");
    assertThat(pause.recoverySeconds()).isEqualTo(4.0);
  }

  /**
   * A broker killed at 20 s: the writes to its partitions wait for a new leader, and all end in
   * second 28 after waiting about 3 s and more (the others went on at 2 ms). The fail-over is from
   * the first of them to the last: what a timeout shorter than it would have failed.
   */
  @Test
  void theFailoverTimeRunsFromTheFirstToTheLastStalledSecond() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .start(START)
            .seconds(40)
            .rate(200)
            .median(s -> s == 28 ? 3_000_000 : 2_000)
            .write(base, "failover");
    Files.writeString(
        dir.resolve(RunFiles.EVENTS),
        """
        {"epochMs":%d,"kind":"fault-start","target":"kill broker 2","detail":"broker 2"}
        {"epochMs":%d,"kind":"fault-end","target":"kill broker 2","detail":"killed"}
        """
            .formatted(START + 20_000, START + 20_100));
    RunData run = RunData.load(dir);
    FaultWindows kill = FaultWindows.of(run).get(0);
    double longest = run.goodLatencies(28, 29).getMaxValue() / 1e6;
    assertThat(kill.stalledToSeconds()).isEqualTo(29.0);
    assertThat(kill.stalledFromSeconds())
        .isEqualTo(Math.max(20.0, 29.0 - longest), org.assertj.core.data.Offset.offset(1e-9));
    assertThat(kill.failoverSeconds())
        .hasValue(kill.stalledToSeconds() - kill.stalledFromSeconds());
    assertThat(kill.failoverText()).startsWith("+").contains(" to +29.0 s: ");

    Report report = Report.create(List.of(dir), List.of());
    report.write(base.resolve("out"));
    String html = Files.readString(base.resolve("out").resolve("index.html"));
    assertThat(html).contains("<th>fail-over</th>").contains(escapeHtml(kill.failoverText()));
    JsonNode fault = report.summaryJson().path("faults").get(0);
    assertThat(fault.path("stalledToSeconds").asDouble()).isEqualTo(29.0);
    assertThat(fault.path("failoverSeconds").asDouble())
        .isEqualTo(
            kill.failoverSeconds().getAsDouble(), org.assertj.core.data.Offset.offset(0.001));

    // a pause whose slow seconds (20 ms) are no stall
    FaultWindows pause = FaultWindows.of(RunData.load(pausedRun("no-stall"))).get(0);
    assertThat(pause.failoverSeconds()).isEmpty();
    assertThat(pause.failoverText()).isEqualTo("no stall");
  }

  private static String escapeHtml(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  @Test
  void theRecoveryCheckPassesOrFailsOnTheRecoveryTimeAndNamesAMissingFault() throws Exception {
    RunData run = RunData.load(pausedRun("checked"));
    CheckResult within = CheckParser.parse("recovery < 10s after \"pause broker 1\"").evaluate(run);
    assertThat(within.passed()).as(within.message()).isTrue();
    assertThat(within.measured()).contains("recovery = 4.00 s after \"pause broker 1 for 5s\"");

    CheckResult tooSlow =
        CheckParser.parse("recovery < 2s after \"pause broker 1 for 5s\"").evaluate(run);
    assertThat(tooSlow.passed()).isFalse();

    CheckResult missing = CheckParser.parse("recovery < 10s after \"kill broker 2\"").evaluate(run);
    assertThat(missing.passed()).isFalse();
    assertThat(missing.message())
        .contains("no fault \"kill broker 2\"")
        .contains("\"pause broker 1 for 5s\"");
  }

  @Test
  void aFaultBeforeTheRecoveryEndsItsSearchAndIsLeftOutOfTheNextOnesRange() throws Exception {
    Path dir = pausedRun("two");
    Files.writeString(
        dir.resolve(RunFiles.EVENTS),
        """
        {"epochMs":%d,"kind":"fault-start","target":"kill broker 2","detail":"broker 2"}
        {"epochMs":%d,"kind":"fault-end","target":"kill broker 2","detail":"killed"}
        """
            .formatted(START + 27_000, START + 27_100),
        java.nio.file.StandardOpenOption.APPEND);
    List<FaultWindows> faults = FaultWindows.of(RunData.load(dir));
    assertThat(faults)
        .extracting(FaultWindows::label)
        .containsExactly("pause broker 1 for 5s", "kill broker 2");
    // slow until 29 s: the pause had not recovered when the kill came
    assertThat(faults.get(0).recoveryText())
        .isEqualTo("not back in range before the next fault (kill broker 2 at +27.0 s)");
    // the kill's range leaves the pause's seconds out: the slow 25..28 s are out of it
    assertThat(faults.get(1).recoverySeconds())
        .isEqualTo(1.9, org.assertj.core.data.Offset.offset(0.01));
  }

  @Test
  void aRunThatNeverGetsBackInRangeHasNoRecovery() throws Exception {
    Path dir =
        SyntheticRecord.run()
            .start(START)
            .seconds(40)
            .rate(200)
            .ko(s -> s >= 20 ? 0.3 : 0)
            .write(base, "broken");
    Files.writeString(
        dir.resolve(RunFiles.EVENTS),
        """
        {"epochMs":%d,"kind":"fault-start","target":"kill postgres","detail":"postgres 1"}
        {"epochMs":%d,"kind":"fault-end","target":"kill postgres","detail":"killed"}
        """
            .formatted(START + 20_000, START + 20_300));
    RunData run = RunData.load(dir);
    FaultWindows kill = FaultWindows.of(run).get(0);
    assertThat(kill.recovery()).isEmpty();
    assertThat(kill.recoveryText()).isEqualTo("not back in range by the end of the run");
    CheckResult result = CheckParser.parse("recovery < 10s after \"kill postgres\"").evaluate(run);
    assertThat(result.passed()).isFalse();
    assertThat(result.message()).contains("not back in range by the end of the run");
  }

  @Test
  void theFaultIsABandATableRowAndAnEntryOfTheSummary() throws Exception {
    Report report = Report.create(List.of(pausedRun("shown")), List.of());
    Path out = base.resolve("out");
    report.write(out);

    String html = Files.readString(out.resolve("index.html"));
    assertThat(html)
        .contains("<h2 id=\"faults\">Faults</h2>")
        .contains("<td class=\"text\">pause broker 1 for 5s</td><td>+20.0 s</td><td>+25.0 s</td>")
        .contains("<td>4.0 s</td>")
        .contains("#fde2e1"); // the red band on the time charts

    JsonNode faults =
        new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("faults");
    assertThat(faults).hasSize(1);
    assertThat(faults.get(0).get("fault").asText()).isEqualTo("pause broker 1 for 5s");
    assertThat(faults.get(0).get("fromSeconds").asDouble()).isEqualTo(20.0);
    assertThat(faults.get(0).get("toSeconds").asDouble()).isEqualTo(25.0);
    assertThat(faults.get(0).get("recoverySeconds").asDouble()).isEqualTo(4.0);
  }
}
