package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 38's retries through the real {@code fusillade run}, on a PostgreSQL whose sessions are
 * serializable: increments of two rows conflict (SQLState 40001) and, with the query's {@code
 * max_tries: 50}, are tried again until they pass; the injected deadlock pairs abort one
 * transaction of each pair (40P01), tried again under {@code --max-tries 3}. The run record counts
 * the retries and the failures after the last try apart, and together they are exactly the
 * transactions the server rolled back ({@code pg_stat_database}); the console prints pgbench's
 * lines, with the requests late against {@code --latency-limit}.
 */
@Tag("slow")
class RunRetriesTest {
  @TempDir Path dir;

  @Test
  void retriesAndFailuresAreCountedApartAndAddUpToTheServersRollbacks() throws Exception {
    Path file = dir.resolve("conflicts.yml");
    Files.writeString(
        file,
        """
        tables_schema:
          - name: counters
            row_count: 2
            columns:
              - {name: id, type: integer, range: [1, 2], unique: true}
              - {name: n, type: integer, range: [0, 10]}
            primary_keys: [id]
        queries:
          - name: increment
            # A sleep before the row is locked: increments that overlap conflict. Arrivals are
            # 12.5 ms apart, so one in twenty sleeps 30 ms and overlaps the next two; the others
            # sleep 5 ms, overlapping only when the machine delays one (CI 2026-12-03: none at all
            # with 5 ms for all; 20 ms for all kept every increment conflicting with the next).
            sql: >-
              update counters set n = n + 1
              + 0 * length(pg_sleep(case when random() < 0.05 then 0.03 else 0.005 end)::text)
              where id = $1::integer
            params:
              - {type: integer, range: [1, 2]}
            max_tries: 50
        injected:
          - {kind: deadlock, share: 1%}
        load: {mode: rate, rate: 80, duration: 6s}
        checks: []
        """);
    try (LocalPostgres postgres = LocalPostgres.start()) {
      execute(
          postgres, "alter database postgres set default_transaction_isolation to serializable");
      long before = rollbacks(postgres);
      Path output = dir.resolve("out");
      CliRun run =
          CliRun.of(
              "run",
              file.toString(),
              "--url",
              postgres.jdbcUrl(),
              "--setup",
              "true",
              "--pool",
              "16",
              "--max-tries",
              "3",
              "--latency-limit",
              // long enough that no increment's retry is cut by it (an increment behind a
              // deadlocked pair waits out deadlock_timeout, 1 s): its claim is that 50 tries pass
              "10s",
              "--output",
              output.toString());
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
      long rolledBack = settledRollbacks(postgres) - before;

      RunRecord record = RunRecordReader.read(SummaryCommand.resolve(output));
      long retriesSerialization = total(record, "sql retries serialization");
      long retriesDeadlock = total(record, "sql retries deadlock");
      long failures =
          total(record, "sql failures serialization") + total(record, "sql failures deadlock");
      long late = total(record, "sql late");
      String console = CliRun.of("summary", record.directory().toString()).out();
      System.out.printf(
          "retries: serialization %d, deadlock %d; failures %d; late %d; server rollbacks %d%n%s",
          retriesSerialization, retriesDeadlock, failures, late, rolledBack, console);
      assertThat(retriesSerialization).as("conflicts of the increments").isPositive();
      assertThat(retriesDeadlock).as("deadlocked halves tried again").isGreaterThan(0);
      assertThat(record.requests().get("increment").koCount()).as("with 50 tries").isZero();
      assertThat(retriesSerialization + retriesDeadlock + failures)
          .as("the server's serialization failures and deadlocks")
          .isEqualTo(rolledBack);
      assertThat(record.manifest().parameters())
          .containsEntry("sql.maxTries", 3)
          .containsEntry("sql.latencyLimit", "10000ms");
      assertThat(console)
          .contains("SQL retries (max tries 3): ")
          .contains(
              ", "
                  + (retriesSerialization + retriesDeadlock)
                  + " retries: serialization "
                  + retriesSerialization
                  + ", deadlock "
                  + retriesDeadlock)
          .contains("SQL failures after the last try: " + failures + " of ")
          .contains("SQL late: " + late + " of ")
          .contains(" requests above the 10000ms latency limit");
      JsonNode summary =
          new ObjectMapper()
              .readTree(record.directory().resolve("report").resolve("summary.json").toFile())
              .get("sqlRetries");
      assertThat(
              summary.get("serializationFailures").asLong()
                  + summary.get("deadlockFailures").asLong())
          .isEqualTo(rolledBack);
      assertThat(Files.readString(record.directory().resolve("report").resolve("index.html")))
          .contains("<h2 id=\"sql-retries\">SQL retries</h2>");
    }
  }

  private static void execute(LocalPostgres postgres, String sql) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long rollbacks(LocalPostgres postgres) throws Exception {
    try (Connection c = postgres.connect();
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "select xact_rollback from pg_stat_database where datname = current_database()")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** The rollbacks once the run's sessions have ended and their statistics are in. */
  private static long settledRollbacks(LocalPostgres postgres) throws Exception {
    long seen = rollbacks(postgres);
    for (int i = 0; i < 20; i++) {
      Thread.sleep(250);
      long now = rollbacks(postgres);
      if (now == seen && i >= 3) {
        return now;
      }
      seen = now;
    }
    return seen;
  }

  private static long total(RunRecord record, String counter) {
    long total = 0;
    for (SecondCounts second : record.seconds()) {
      total += second.counters().getOrDefault(counter, 0L);
    }
    return total;
  }
}
