package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.local.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How {@code -Dfusillade.servers} chooses, and what it says when it cannot. */
class ServersTest {

  @Test
  void embeddedIsTheDefault() {
    assertThat(Servers.kind(null)).isEqualTo(Servers.Kind.EMBEDDED);
    assertThat(Servers.kind(" ")).isEqualTo(Servers.Kind.EMBEDDED);
  }

  @Test
  void theKindIsReadWhateverItsCase() {
    assertThat(Servers.kind("Containers")).isEqualTo(Servers.Kind.CONTAINERS);
    assertThat(Servers.kind(" embedded ")).isEqualTo(Servers.Kind.EMBEDDED);
  }

  @Test
  void anUnknownKindNamesThePropertyAndTheChoices() {
    assertThatThrownBy(() -> Servers.kind("docker"))
        .isInstanceOf(ServersException.class)
        .hasMessage(
            "-Dfusillade.servers=docker is not a kind of servers: use embedded (the default) or"
                + " containers");
  }

  @Test
  void anEmbeddedPrimaryWithAReplicaStreamsItsRowsThere() throws Exception {
    try (PostgresServer db = Servers.postgres(Servers.Kind.EMBEDDED, 1)) {
      assertThat(db).isInstanceOf(LocalPostgresCluster.class);
      assertThat(db.replicaJdbcUrls()).hasSize(1);
      try (Connection primary = DriverManager.getConnection(db.jdbcUrl());
          Statement s = primary.createStatement()) {
        s.execute("create table t as select generate_series(1, 10) id");
      }
      ((LocalPostgresCluster) db).awaitReplicated(Duration.ofSeconds(30));
      try (Connection replica = DriverManager.getConnection(db.replicaJdbcUrls().get(0));
          Statement s = replica.createStatement();
          ResultSet r = s.executeQuery("select count(*), pg_is_in_recovery() from t")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getInt(1)).isEqualTo(10);
        assertThat(r.getBoolean(2)).isTrue();
      }
    }
  }

  @Test
  void aClusterWithoutBrokersIsRefused() {
    assertThatThrownBy(() -> Servers.kafka(Servers.Kind.EMBEDDED, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one broker");
  }

  @Test
  void containersWithoutADockerEngineSayWhatToDoInsteadOfAStackTrace() {
    assumeFalse(Docker.available(), "a Docker engine answers here");
    for (Runnable start :
        new Runnable[] {
          () -> Servers.postgres(Servers.Kind.CONTAINERS, 0),
          () -> Servers.kafka(Servers.Kind.CONTAINERS, 3),
          () -> Servers.openSearch(Servers.Kind.CONTAINERS)
        }) {
      assertThatThrownBy(start::run)
          .isInstanceOf(ServersException.class)
          .hasMessageStartingWith("-Dfusillade.servers=containers needs a Docker engine")
          .hasMessageEndingWith("leave the property out to use the embedded servers");
    }
  }
}
