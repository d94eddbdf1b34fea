package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 36's long queries in a real {@code fusillade ladder}, with short sleeps standing for long
 * analytical queries (the same mechanism as {@code pg_sleep(75)} against 60 s): with {@code
 * --request-timeout 1s}, a query whose own {@code timeout:} is raised completes past it; one
 * without is cancelled on the server at 1 s; with {@code --set-timeout 4s}, the query running when
 * the set's 4 s run out is cancelled, and the rest of the set is not sent. Afterwards PostgreSQL
 * runs none of them ({@code pg_stat_activity}), though each would have slept 60 s.
 */
@Tag("slow")
class LadderTimeoutsTest {
  @TempDir Path dir;

  @Test
  void raisedTimeoutsCompleteAndTheOthersAreCancelledOnTheServer() throws Exception {
    Path file = dir.resolve("long.yml");
    Files.writeString(
        file,
        """
        queries:
          - name: raised
            sql: select pg_sleep(1.5) /* ladder */
            timeout: 10s
          - name: default
            sql: select pg_sleep(60) /* ladder */
          - name: set ran out
            sql: select pg_sleep(60) /* ladder */
            timeout: 10s
          - name: not sent
            sql: select 1
        """);
    try (LocalPostgres postgres = LocalPostgres.start()) {
      Path output = dir.resolve("out");
      long start = System.nanoTime();
      CliRun run =
          CliRun.of(
              "ladder",
              file.toString(),
              "--url",
              postgres.jdbcUrl(),
              "--levels",
              "1",
              "--repeats",
              "1",
              "--request-timeout",
              "1s",
              "--set-timeout",
              "4s",
              "--output",
              output.toString());
      // the level is kept, its timed-out queries marked: exit code 3, the table printed
      assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(3);
      assertThat(run.out())
          .containsPattern("x level 1, run 1: \\d+ KO \\(timed out")
          .doesNotContain("default checks");
      assertThat(sleeping(postgres)).as("backends still sleeping after the ladder").isZero();
      assertThat((System.nanoTime() - start) / 1e9)
          .as("seconds: checked long before the 60 s sleeps would have ended")
          .isLessThan(50);

      RunRecord record = ladderRun(output);
      Map<String, RequestTotals> requests = record.requests();
      assertThat(requests.get("raised").okCount()).as("1.5 s past a 1 s timeout").isEqualTo(1);
      assertThat(requests.get("raised").ok().getMaxValue() / 1e6).isGreaterThanOrEqualTo(1.5);
      assertThat(requests.get("default").errors()).containsOnlyKeys("timed out after 1 s");
      assertThat(requests.get("default").ko().getMaxValue() / 1e6).isBetween(0.95, 1.6);
      assertThat(requests.get("set ran out").errors())
          .containsOnlyKeys("timed out: the query set's 4 s ran out");
      assertThat(requests).doesNotContainKey("not sent");
      assertThat(requests.get("query set").koCount()).isEqualTo(1);
      assertThat(requests.get("query set").ko().getMaxValue() / 1e6).isBetween(3.9, 4.7);
    }
  }

  private static int sleeping(LocalPostgres postgres) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "select count(*) from pg_stat_activity where state = 'active'"
                    + " and query like '%pg_sleep%/* ladder */%' and pid <> pg_backend_pid()")) {
      r.next();
      return r.getInt(1);
    }
  }

  private static RunRecord ladderRun(Path output) throws Exception {
    try (Stream<Path> ladders = Files.list(output)) {
      Path ladder =
          ladders.filter(p -> p.getFileName().toString().startsWith("ladder-")).findFirst().get();
      try (Stream<Path> runs = Files.list(ladder)) {
        return runs.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
            .map(RunRecordReader::read)
            .findFirst()
            .orElseThrow();
      }
    }
  }
}
