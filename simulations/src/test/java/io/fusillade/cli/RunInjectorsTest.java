package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16's several injectors, one test: three {@code fusillade run --injectors 3 --injector-index
 * I --start-at T} side by side, each at a third of the rate, insert seeded unique keys into one
 * PostgreSQL. Together they send exactly the single injector's requests (every key once: no
 * duplicate-key error, no gap), start together, and {@code fusillade report} of their three records
 * is the test's report, with nothing flagged.
 */
@Tag("slow")
class RunInjectorsTest {
  private static final int RATE = 300;
  private static final int SECONDS = 5;

  @TempDir Path dir;

  @Test
  void threeInjectorsSendTheSingleInjectorsRequestsOnceEachAndMergeIntoOneReport()
      throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("create table shared_keys (id bigint primary key, injector text)");
      }
      Path file = dir.resolve("keys.yml");
      Files.writeString(
          file,
          """
          seed: 5
          queries:
            - name: insert key
              sql: insert into shared_keys (id) values ($1::bigint)
              params:
                - {type: long, range: [1, 100000000], unique: true}
          load: {mode: rate, rate: %d, duration: %ds}
          checks: [errors < 0.01%%, rate >= 95%% of target]
          """
              .formatted(RATE, SECONDS));
      Instant start = Instant.now().plusSeconds(25); // after the three JVMs have started
      List<CompletableFuture<CliRun>> runs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String[] args = {
          "run",
          file.toString(),
          "--url",
          postgres.jdbcUrl(),
          "--setup",
          "false",
          "--injectors",
          "3",
          "--injector-index",
          Integer.toString(i),
          "--start-at",
          start.toString(),
          "--output",
          dir.resolve("out" + i).toString()
        };
        runs.add(CompletableFuture.supplyAsync(() -> CliRun.of(args)));
      }
      List<Path> records = new ArrayList<>();
      for (CompletableFuture<CliRun> run : runs) {
        CliRun result = run.get(180, TimeUnit.SECONDS);
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
      }
      for (int i = 0; i < 3; i++) {
        Path record = SummaryCommand.resolve(dir.resolve("out" + i));
        records.add(record);
        RunRecord data = RunRecordReader.read(record);
        System.out.printf(
            "injector %d: ready %s ms before --start-at%n",
            i, data.manifest().parameters().get("startMarginMs"));
        assertThat(data.manifest().parameters())
            .containsEntry("injectors", 3)
            .containsEntry("injectorIndex", i)
            .containsEntry("startAt", start.toString())
            .containsKey("startMarginMs");
        // each measured its clock against the database's: one machine, so within a few ms
        assertThat(data.manifest().parameters().get("clockReference"))
            .asString()
            .startsWith("jdbc:postgresql://localhost:");
        double offset = ((Number) data.manifest().parameters().get("clockOffsetMs")).doubleValue();
        double uncertainty =
            ((Number) data.manifest().parameters().get("clockUncertaintyMs")).doubleValue();
        assertThat(Math.abs(offset)).isLessThan(20 + uncertainty);
        assertThat(data.requests().get("insert key").count()).isEqualTo(RATE / 3 * SECONDS);
        assertThat(Math.abs(data.manifest().startEpochMs() - start.toEpochMilli()))
            .as("the load began at --start-at")
            .isLessThan(1_500);
      }
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select count(*), count(distinct id) from shared_keys")) {
        r.next();
        assertThat(r.getLong(1)).isEqualTo(RATE * SECONDS);
        assertThat(r.getLong(2)).isEqualTo(RATE * SECONDS);
      }

      List<String> report = new ArrayList<>(List.of("report"));
      records.forEach(p -> report.add(p.toString()));
      report.addAll(List.of("--output", dir.resolve("merged").toString()));
      CliRun merged = CliRun.of(report.toArray(String[]::new));
      assertThat(merged.exitCode()).as(merged.out() + merged.err()).isZero();
      JsonNode summary =
          new ObjectMapper().readTree(dir.resolve("merged").resolve("summary.json").toFile());
      // The merge adds no flag of its own: what it shows is what an injector flagged (on a busy
      // machine, three injectors started at once may rightly say they were saturated).
      java.util.Set<String> flagged = new java.util.TreeSet<>();
      for (Path record : records) {
        flagged.addAll(RunRecordReader.read(record).manifest().flags());
      }
      List<String> mergedFlags = new ArrayList<>();
      summary.path("flags").forEach(f -> mergedFlags.add(f.asText()));
      assertThat(mergedFlags).as("flags of the injectors: " + flagged).isSubsetOf(flagged);
      assertThat(summary.path("requests").get(0).path("count").asLong()).isEqualTo(RATE * SECONDS);
      assertThat(summary.path("requests").get(0).path("ko").asLong()).isZero();
    }
  }

  @Test
  void threeInjectorsOfAQueueSendTheSingleInjectorsQueriesOnceEach() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("create table shared_keys (id bigint primary key, injector text)");
      }
      Path file = dir.resolve("queue.yml");
      Files.writeString(
          file,
          """
          seed: 9
          queries:
            - name: insert key
              sql: insert into shared_keys (id) values ($1::bigint)
              count: 600
              params:
                - {type: long, range: [1, 100000000], unique: true}
          load: {mode: queue, users: 7}
          checks: [errors < 0.01%]
          """);
      // the single injector's keys, kept aside
      CliRun alone =
          CliRun.of(
              "run",
              file.toString(),
              "--url",
              postgres.jdbcUrl(),
              "--setup",
              "false",
              "--output",
              dir.resolve("alone").toString());
      assertThat(alone.exitCode()).as(alone.out() + alone.err()).isZero();
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("create table alone_keys as select id from shared_keys");
        s.execute("truncate shared_keys");
      }
      List<CompletableFuture<CliRun>> runs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String[] args = {
          "run",
          file.toString(),
          "--url",
          postgres.jdbcUrl(),
          "--setup",
          "false",
          "--injectors",
          "3",
          "--injector-index",
          Integer.toString(i),
          "--output",
          dir.resolve("queue" + i).toString()
        };
        runs.add(CompletableFuture.supplyAsync(() -> CliRun.of(args)));
      }
      long sent = 0;
      for (int i = 0; i < 3; i++) {
        CliRun result = runs.get(i).get(180, TimeUnit.SECONDS);
        assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
        RunRecord data = RunRecordReader.read(SummaryCommand.resolve(dir.resolve("queue" + i)));
        // users 0, 3, 6; 1, 4; 2, 5
        assertThat(data.manifest().parameters()).containsEntry("users", i == 0 ? 3 : 2);
        sent += data.requests().get("insert key").count();
      }
      assertThat(sent).isEqualTo(600);
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "select count(*), count(a.id), count(k.id) from shared_keys k"
                      + " full join alone_keys a using (id)")) {
        r.next();
        // the same 600 keys as the single injector's, none missing, none more
        assertThat(r.getLong(1)).isEqualTo(600);
        assertThat(r.getLong(2)).isEqualTo(600);
        assertThat(r.getLong(3)).isEqualTo(600);
      }
    }
  }
}
