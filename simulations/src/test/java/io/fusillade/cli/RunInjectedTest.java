package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault injection in an SQL workload: the erroneous statements appear under their own names with
 * the server's reasons, and the good requests' {@code errors < 1%} passes beside them.
 */
@Tag("slow")
class RunInjectedTest {
  @TempDir Path dir;

  @Test
  void injectedStatementsFailUnderTheirOwnNamesAndDoNotFailTheGoodRequestsCheck() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(
        file,
        """
        queries:
          - sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        injected:
          - {kind: syntax error, share: 3%}
          - {kind: constraint violation, share: 3%}
          - {kind: statement timeout, share: 2%}
        load: {mode: rate, rate: 200, duration: 4s}
        checks:
          - errors < 1%
          - p99 < 90ms
          - errors > 99% for "injected syntax error"
        """);
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    Path record = SummaryCommand.resolve(output);
    RunRecord data = RunRecordReader.read(record);
    Map<String, RequestTotals> requests = data.requests();
    assertThat(requests)
        .containsKeys(
            "query1",
            "injected syntax error",
            "injected constraint violation",
            "injected statement timeout");
    RequestTotals syntax = requests.get("injected syntax error");
    RequestTotals constraint = requests.get("injected constraint violation");
    RequestTotals timeout = requests.get("injected statement timeout");
    assertThat(syntax.koCount()).isEqualTo(syntax.count()).isGreaterThan(5);
    assertThat(syntax.errors().keySet()).allMatch(r -> r.contains("42601"));
    assertThat(constraint.errors().keySet()).allMatch(r -> r.contains("23505"));
    assertThat(timeout.errors().keySet()).allMatch(r -> r.contains("57014"));
    assertThat(timeout.koCount()).isEqualTo(timeout.count());
    // the good requests were not harmed: no KO, and the timeouts' 100 ms are not in their p99
    assertThat(requests.get("query1").koCount()).isZero();
    String junit = Files.readString(record.resolve("report").resolve("junit.xml"));
    assertThat(junit).contains("requests injected to fail (judged only when named)");
    String html = Files.readString(record.resolve("report").resolve("index.html"));
    assertThat(html).contains("Injected requests");
  }

  @Test
  void deadlockPairsAreFoundByTheServerAndAKindMayHaveARateOfItsOwn() throws Exception {
    Path file = dir.resolve("d.yml");
    Files.writeString(
        file,
        """
        queries:
          - sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        injected:
          - {kind: deadlock, share: 4%}
          - {kind: syntax error, rate: 10, from: 1s, for: 2s}
        load: {mode: rate, rate: 100, duration: 5s}
        checks:
          - errors < 1%
        """);
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    RunRecord data = RunRecordReader.read(SummaryCommand.resolve(output));
    RequestTotals deadlock = data.requests().get("injected deadlock");
    assertThat(deadlock).as(run.out()).isNotNull();
    assertThat(deadlock.count()).isGreaterThan(8);
    // each pair that met: one aborted by PostgreSQL's deadlock detector, the other committed
    assertThat(deadlock.errors().keySet())
        .as(deadlock.errors().toString())
        .isNotEmpty()
        .allMatch(r -> r.contains("40P01"));
    assertThat(deadlock.okCount()).isPositive();
    assertThat(data.requests().get("query1").koCount()).isZero();
    // a kind at a rate of its own: 10/s for 2 s, beside the 500 arrivals
    RequestTotals syntax = data.requests().get("injected syntax error");
    assertThat(syntax.count()).isEqualTo(20);
    assertThat(syntax.koCount()).isEqualTo(20);
    assertThat(data.requests().get("query1").count() + deadlock.count()).isEqualTo(500);
  }
}
