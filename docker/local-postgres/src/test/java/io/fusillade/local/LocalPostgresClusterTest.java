package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class LocalPostgresClusterTest {

  @Test
  void aReplicaStreamsThePrimarysWritesAndRefusesItsOwn() throws Exception {
    List<Path> data;
    try (LocalPostgresCluster db = LocalPostgresCluster.start(1)) {
      data = db.nodes().stream().map(LocalPostgres::dataDirectoryForTests).toList();
      assertThat(db.replicaJdbcUrls()).hasSize(1).doesNotContain(db.jdbcUrl());
      LocalPostgres replica = db.replicas().get(0);
      assertThat(replica.isReplica()).isTrue();
      assertThat(db.primary().isReplica()).isFalse();

      // written after the base backup: only streaming brings these rows over
      execute(db.jdbcUrl(), "create table t (id int primary key, v text)");
      execute(db.jdbcUrl(), "insert into t select i, 'v' || i from generate_series(1, 1000) i");
      db.awaitReplicated(Duration.ofSeconds(30));

      assertThat(single(replica.jdbcUrl(), "select count(*) from t")).isEqualTo("1000");
      assertThat(single(replica.jdbcUrl(), "select pg_is_in_recovery()")).isEqualTo("t");
      assertThat(
              single(
                  db.jdbcUrl(),
                  "select count(*) from pg_stat_replication where state = 'streaming'"))
          .isEqualTo("1");
      assertThatThrownBy(() -> execute(replica.jdbcUrl(), "insert into t values (0, 'x')"))
          .hasMessageContaining("read-only transaction");

      // the standby has the primary's settings, not defaults
      assertThat(single(replica.jdbcUrl(), "select current_setting('max_connections')"))
          .isEqualTo("300");
    }
    for (Path directory : data) {
      assertThat(Files.exists(directory.getParent())).isFalse();
    }
  }

  @Test
  void aReplicaStoppedAndRestartedCatchesUp() throws Exception {
    try (LocalPostgresCluster db = LocalPostgresCluster.start(1)) {
      LocalPostgres replica = db.replicas().get(0);
      execute(db.jdbcUrl(), "create table t (id int)");
      replica.stopImmediately();
      execute(db.jdbcUrl(), "insert into t select generate_series(1, 500)");
      replica.restart();
      db.awaitReplicated(Duration.ofSeconds(30));
      assertThat(single(replica.jdbcUrl(), "select count(*) from t")).isEqualTo("500");
    }
  }

  private static void execute(String url, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static String single(String url, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      assertThat(r.next()).isTrue();
      return r.getString(1);
    }
  }
}
