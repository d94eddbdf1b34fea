package io.fusillade.local;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedded PostgreSQL primary and its hot standbys, each a {@link LocalPostgres} on a port of
 * its own that follows the primary by streaming replication ({@link LocalPostgres#startReplica()}):
 * the "primary with a streaming replica" of a read-scaling test, with no Docker.
 *
 * <pre>{@code
 * try (LocalPostgresCluster db = LocalPostgresCluster.start(1)) {
 *   String writes = db.jdbcUrl();                 // the primary
 *   String reads = db.replicaJdbcUrls().get(0);   // read-only, a moment behind
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops the replicas, then the primary, and removes their data; a crash of the
 * JVM leaves them to the stale-server clean-up as any embedded server.
 */
public final class LocalPostgresCluster implements PostgresServer {
  private final LocalPostgres primary;
  private final List<LocalPostgres> replicas;

  private LocalPostgresCluster(LocalPostgres primary, List<LocalPostgres> replicas) {
    this.primary = primary;
    this.replicas = List.copyOf(replicas);
  }

  /** A primary with the default settings and {@code replicas} standbys. */
  public static LocalPostgresCluster start(int replicas) {
    return start(LocalPostgres.builder(), replicas);
  }

  /**
   * A primary from {@code primary}'s settings (the standbys get the same) and {@code replicas}
   * standbys, started one after the other.
   *
   * @throws IllegalArgumentException when {@code replicas} is negative
   * @throws IllegalStateException when a server does not start (those started are stopped)
   */
  public static LocalPostgresCluster start(LocalPostgres.Builder primary, int replicas) {
    if (replicas < 0) {
      throw new IllegalArgumentException("replicas must be 0 or more: " + replicas);
    }
    LocalPostgres started = primary.start();
    List<LocalPostgres> standbys = new ArrayList<>();
    try {
      for (int i = 0; i < replicas; i++) {
        standbys.add(started.startReplica());
      }
    } catch (RuntimeException e) {
      new LocalPostgresCluster(started, standbys).close();
      throw e;
    }
    return new LocalPostgresCluster(started, standbys);
  }

  public LocalPostgres primary() {
    return primary;
  }

  /** The standbys, in order. */
  public List<LocalPostgres> replicas() {
    return replicas;
  }

  /** Every server: the primary first, then the standbys. */
  public List<LocalPostgres> nodes() {
    List<LocalPostgres> nodes = new ArrayList<>(replicas.size() + 1);
    nodes.add(primary);
    nodes.addAll(replicas);
    return nodes;
  }

  @Override
  public String jdbcUrl() {
    return primary.jdbcUrl();
  }

  @Override
  public String user() {
    return primary.user();
  }

  @Override
  public String password() {
    return primary.password();
  }

  @Override
  public List<String> replicaJdbcUrls() {
    return replicas.stream().map(LocalPostgres::jdbcUrl).toList();
  }

  /**
   * Waits until every standby has replayed what the primary had written when this was called: a
   * test that reads on a standby what it just wrote on the primary calls this in between.
   *
   * @throws IllegalStateException when a standby has not caught up within {@code timeout}
   */
  public void awaitReplicated(Duration timeout) {
    // The insert position, not the write one: with synchronous_commit off (the default here) a
    // commit may not be written yet, and the WAL writer sends it within wal_writer_delay.
    String target = query(primary, "select pg_current_wal_insert_lsn()::text");
    long deadline = System.nanoTime() + timeout.toNanos();
    for (LocalPostgres replica : replicas) {
      String sql = "select pg_last_wal_replay_lsn() >= '" + target + "'::pg_lsn";
      while (!"t".equals(query(replica, sql))) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the replica on port "
                  + replica.port()
                  + " has not replayed the primary's WAL up to "
                  + target
                  + " within "
                  + timeout);
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for replication", e);
        }
      }
    }
  }

  private static String query(LocalPostgres server, String sql) {
    try (Connection connection = server.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getString(1);
    } catch (SQLException e) {
      throw new IllegalStateException(
          "could not ask the server on port " + server.port() + ": " + e.getMessage(), e);
    }
  }

  /** Stops the standbys, then the primary, and removes their data. */
  @Override
  public void close() {
    RuntimeException failure = null;
    List<LocalPostgres> lastFirst = nodes();
    java.util.Collections.reverse(lastFirst);
    for (LocalPostgres server : lastFirst) {
      try {
        server.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public String toString() {
    return "LocalPostgresCluster[" + jdbcUrl() + " + " + replicaJdbcUrls() + "]";
  }
}
