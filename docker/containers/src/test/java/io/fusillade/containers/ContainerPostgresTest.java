package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * PostgreSQL in containers, a primary and its streaming replica started once for the class: the
 * replica follows the primary, and faults through the engine (pause, kill, restart) act on a node
 * as on a process. The local image keeps the official image's contract, so that Testcontainers' own
 * {@code PostgreSQLContainer} takes it. Skipped without a Docker engine, failed without one where
 * CI=true.
 */
@Tag("slow")
class ContainerPostgresTest {
  private static ContainerPostgres db;

  @BeforeAll
  static void startAPrimaryAndAReplica() {
    Docker.assumeAvailable();
    // max_connections above the default: a standby below the primary's value would not start
    db = ContainerPostgres.builder().replicas(1).setting("max_connections", "200").start();
  }

  @AfterAll
  static void stopThemAndLeaveNothing() {
    if (db != null) {
      db.close();
      assertThat(Leftovers.ofThisSession()).isEmpty();
    }
  }

  @Test
  void theLocalImageIsTheDefaultWhereItWasBuilt() {
    if (Docker.hasImage(ContainerPostgres.LOCAL_IMAGE) || "true".equals(System.getenv("CI"))) {
      // .ci/run builds it (docker/image/build-local.sh): CI runs on it, not on a pulled image
      assertThat(db.image()).isEqualTo(ContainerPostgres.LOCAL_IMAGE);
    } else {
      assertThat(db.image()).isEqualTo(ContainerPostgres.DEFAULT_IMAGE);
    }
    assertThat(db.password()).isEmpty();
  }

  @Test
  void aRowWrittenOnThePrimaryIsReadOnItsReplica() throws Exception {
    execute(
        db.jdbcUrl(), "create table marks (id int primary key)", "insert into marks values (7)");
    assertThat(awaitCount(db.replicaJdbcUrls().get(0), "marks", 1)).isEqualTo(1);
  }

  @Test
  void aKilledReplicaRestartsOnItsUrlAndStreamsWhatItMissed() throws Exception {
    execute(db.jdbcUrl(), "create table missed (id int primary key)");
    String replica = db.replicaJdbcUrls().get(0);
    awaitCount(replica, "missed", 0);

    db.kill(2);
    assertThatThrownBy(() -> DriverManager.getConnection(quick(replica), db.user(), "").close())
        .as("the killed replica refuses connections")
        .isInstanceOf(SQLException.class);
    execute(db.jdbcUrl(), "insert into missed select generate_series(1, 100)");
    db.restart(2);

    assertThat(db.replicaJdbcUrls()).containsExactly(replica);
    assertThat(awaitCount(replica, "missed", 100)).isEqualTo(100);
  }

  @Test
  void aPausedPrimaryAnswersNothingUntilResumed() throws Exception {
    db.pause(1);
    try {
      long start = System.nanoTime();
      assertThatThrownBy(() -> execute(quick(db.jdbcUrl()), "select 1"))
          .as("a paused primary does not answer")
          .isInstanceOf(SQLException.class);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .as("the client waited for its timeout: nobody refused it")
          .isGreaterThanOrEqualTo(900);
    } finally {
      db.resume(1);
    }
    execute(db.jdbcUrl(), "select 1");
  }

  /**
   * Testcontainers' PostgreSQLContainer starts the local image declared compatible with the
   * official one: its user, password and database, and its wait for the second "ready" line.
   */
  @Test
  void postgreSqlContainerTakesTheLocalImage() throws Exception {
    DockerImageName image =
        DockerImageName.parse(ContainerPostgres.LOCAL_IMAGE).asCompatibleSubstituteFor("postgres");
    try (PostgreSQLContainer server =
        new PostgreSQLContainer(image)
            .withDatabaseName("shop")
            .withUsername("tester")
            .withPassword("not-the-default")) {
      server.start();
      try (Connection connection =
              DriverManager.getConnection(server.getJdbcUrl(), "tester", "not-the-default");
          ResultSet row =
              connection
                  .createStatement()
                  .executeQuery("select current_user, current_database(), version()")) {
        assertThat(row.next()).isTrue();
        assertThat(row.getString(1)).isEqualTo("tester");
        assertThat(row.getString(2)).isEqualTo("shop");
        assertThat(row.getString(3)).startsWith("PostgreSQL 15.");
      }
      assertThatThrownBy(
              () -> DriverManager.getConnection(server.getJdbcUrl(), "tester", "wrong").close())
          .as("a password is asked for and checked")
          .hasMessageContaining("password authentication failed");
    }
  }

  /** The URL with short timeouts to connect, to log in and to read. */
  private static String quick(String url) {
    return url + "?connectTimeout=1&socketTimeout=1&loginTimeout=2";
  }

  private static void execute(String url, String... statements) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url, db.user(), "");
        Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    }
  }

  /** The replica's row count of {@code table} once it reaches {@code expected} (30 s at most). */
  private static int awaitCount(String replicaUrl, String table, int expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int count = -1;
    while (System.nanoTime() < deadline) {
      try (Connection replica = DriverManager.getConnection(replicaUrl, db.user(), "");
          ResultSet rows =
              replica
                  .createStatement()
                  .executeQuery("select count(*) from " + table + " where pg_is_in_recovery()")) {
        rows.next();
        count = rows.getInt(1);
        if (count == expected) {
          return count;
        }
      } catch (SQLException notYet) {
        // the table's creation has not reached the replica yet
      }
      Thread.sleep(100);
    }
    return count;
  }
}
