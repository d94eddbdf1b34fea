package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --balance consistent-hash} over two nodes: each query's first parameter is
 * its key, and every key is sent to one node only (issue 20: it used to fail in the forked JVM with
 * a stack trace). Each node records the keys it was sent in a table of its own.
 */
@Tag("slow")
class RunBalanceTest {
  private static final int KEYS = 20;

  @TempDir Path dir;

  @Test
  void eachKeyGoesToOneNodeAndBothNodesGetKeys() throws Exception {
    try (LocalPostgres first = LocalPostgres.start();
        LocalPostgres second = LocalPostgres.start()) {
      for (LocalPostgres node : new LocalPostgres[] {first, second}) {
        try (Connection c = node.connect();
            Statement s = c.createStatement()) {
          s.execute("create table hits (key integer not null)");
        }
      }
      Path file = dir.resolve("keys.yml");
      Files.writeString(
          file,
          """
          queries:
            - name: hit
              sql: insert into hits (key) values ($1::integer)
              params:
                - {type: integer, range: [1, %d]}
          load: {mode: rate, rate: 100, duration: 4s}
          checks: [errors < 1%%]
          """
              .formatted(KEYS));
      CliRun result =
          CliRun.of(
              "run",
              file.toString(),
              "--url",
              first.jdbcUrl(),
              "--url",
              second.jdbcUrl(),
              "--setup",
              "false",
              "--balance",
              "consistent-hash",
              "--watch-process",
              "postgres",
              "--output",
              dir.resolve("out").toString());
      assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
      // --watch-process reached the Gatling JVM: the servers' CPU is in the record
      RunRecord record;
      try (Stream<Path> runs = Files.list(dir.resolve("out"))) {
        record =
            RunRecordReader.read(
                runs.filter(run -> Files.isRegularFile(run.resolve("run.json")))
                    .findFirst()
                    .orElseThrow());
      }
      assertThat(record.seconds()).anyMatch(s -> s.gauges().containsKey("process.postgres.cpu"));
      // The server said what it is, and which settings differ from its defaults (the embedded one
      // runs without fsync), for compare to name a changed setting.
      assertThat(record.manifest().parameters().get("sql.server"))
          .asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
          .containsEntry("product", "PostgreSQL")
          .containsKey("version")
          .extractingByKey("settings")
          .asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
          .containsEntry("fsync", "off")
          .doesNotContainKey("port");

      Set<Integer> onFirst = keys(first);
      Set<Integer> onSecond = keys(second);
      assertThat(onFirst).isNotEmpty().doesNotContainAnyElementsOf(onSecond);
      assertThat(onSecond).isNotEmpty();
      Set<Integer> all = new HashSet<>(onFirst);
      all.addAll(onSecond);
      assertThat(all).isSubsetOf(IntStream.rangeClosed(1, KEYS).boxed().toList());
      assertThat(all.size())
          .as("400 inserts over 20 keys reach nearly every key")
          .isGreaterThan(15);
    }
  }

  private static Set<Integer> keys(LocalPostgres node) throws Exception {
    Set<Integer> keys = new HashSet<>();
    try (Connection c = node.connect();
        ResultSet rows = c.createStatement().executeQuery("select distinct key from hits")) {
      while (rows.next()) {
        keys.add(rows.getInt(1));
      }
    }
    return keys;
  }
}
