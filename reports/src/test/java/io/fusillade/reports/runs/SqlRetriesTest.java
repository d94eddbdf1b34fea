package io.fusillade.reports.runs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fusillade.reports.report.Report;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * pgbench's lines of a SQL run, from the counters the SQL protocol records: the console, {@code
 * summary.json} and the HTML report say the retries and the failures after the last try apart, by
 * cause, and the late requests against the latency limit; a run with nothing to say says nothing.
 */
class SqlRetriesTest {
  @TempDir Path dir;

  /** 10 s of one request name at 100/s: 1,000 requests, with the counts per second below. */
  private RunData run(SyntheticRecord record) throws Exception {
    return RunData.load(record.seconds(10).names(List.of("transfer")).rate(100).write(dir, "r"));
  }

  private RunData retried() throws Exception {
    return run(
        SyntheticRecord.run()
            .parameter("sql.maxTries", 3)
            .parameter("sql.latencyLimit", "50ms")
            .counter("sql retried", 10)
            .counter("sql retries serialization", 12)
            .counter("sql retries deadlock", 2)
            .counter("sql failures serialization", 1)
            .counter("sql late", 3));
  }

  @Test
  void theConsoleSaysRetriesFailuresAndLateRequestsApart() throws Exception {
    SqlRetries retries = SqlRetries.of(retried()).orElseThrow();
    assertThat(retries.lines().lines().toList())
        .containsExactly(
            "SQL retries (max tries 3): 100 of 1000 requests retried (10.0%), 140 retries:"
                + " serialization 120, deadlock 20",
            "SQL failures after the last try: 10 of 1000 requests (1.0%): serialization 10,"
                + " deadlock 0",
            "SQL late: 30 of 1000 requests above the 50ms latency limit (3.0%)");
    assertThat(retries.serializationFailures()).as("raised by the server").isEqualTo(130);
    assertThat(retries.deadlockFailures()).isEqualTo(20);
  }

  @Test
  void summaryJsonAndTheHtmlReportCarryThem() throws Exception {
    RunData run = retried();
    Report report = new Report(run, List.of());
    JsonNode json = report.summaryJson().get("sqlRetries");
    assertThat(json.get("retried").asLong()).isEqualTo(100);
    assertThat(json.get("retries").asLong()).isEqualTo(140);
    assertThat(json.get("failuresSerialization").asLong()).isEqualTo(10);
    assertThat(json.get("serializationFailures").asLong()).isEqualTo(130);
    assertThat(json.get("late").asLong()).isEqualTo(30);
    assertThat(report.consoleText()).contains("SQL retries (max tries 3)");
    String html = io.fusillade.reports.html.ReportPage.render(run, List.of(), "t");
    assertThat(html)
        .contains("<h2 id=\"sql-retries\">SQL retries</h2>")
        .contains("<tr><td>failed after the last try</td><td>10</td><td>0</td><td>10</td>")
        .contains("30 requests above the 50ms latency limit (3.0%)");
  }

  @Test
  void aRunWithoutRetriesOrALimitSaysNothing() throws Exception {
    RunData plain = run(SyntheticRecord.run());
    assertThat(SqlRetries.of(plain)).isEmpty();
    assertThat(new Report(plain, List.of()).summaryJson().has("sqlRetries")).isFalse();
    assertThat(io.fusillade.reports.html.ReportPage.render(plain, List.of(), "t"))
        .doesNotContain("sql-retries");
  }

  @Test
  void failuresWithOneTryAreStillCounted() throws Exception {
    // pgbench prints its serialization failures whatever --max-tries is
    SqlRetries once =
        SqlRetries.of(run(SyntheticRecord.run().counter("sql failures deadlock", 1))).orElseThrow();
    assertThat(once.maxTries()).isEqualTo(1);
    assertThat(once.failuresDeadlock()).isEqualTo(10);
    assertThat(once.lines()).doesNotContain("SQL late");
  }
}
