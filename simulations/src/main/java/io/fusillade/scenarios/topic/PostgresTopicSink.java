package io.fusillade.scenarios.topic;

import io.fusillade.FusilladeException;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.topic.TopicSink;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A topic's consumers writing into a PostgreSQL table, exactly once: each poll's messages are rows
 * of {@code TABLE} and each partition's next offset a row of {@code TABLE_offsets}, committed in
 * one transaction; a consumer given a partition resumes at the offset stored there. The rows carry
 * the message's stamp (producer, sequence), so the audit after the run counts the rows that repeat
 * a message; the table has no unique key that would hide them.
 */
public final class PostgresTopicSink implements TopicSink {
  private final String url;
  private final String user;
  private final String password;
  private final String table;
  private volatile Consumers consumers;

  /**
   * Creates the tables when missing.
   *
   * @param table the rows' table; the offsets go to {@code <table>_offsets}
   */
  public PostgresTopicSink(String url, String user, String password, String table) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.table = table;
    try (Connection c = connect();
        Statement s = c.createStatement()) {
      s.execute(
          "create table if not exists "
              + table
              + " (topic text not null, partition integer not null, \"offset\" bigint not null,"
              + " producer_id bigint not null, sequence bigint not null,"
              + " written_at timestamptz not null default clock_timestamp())");
      s.execute(
          "create table if not exists "
              + table
              + "_offsets (topic text not null, partition integer not null,"
              + " next_offset bigint not null, primary key (topic, partition))");
    } catch (SQLException e) {
      throw new FusilladeException(
          "cannot create the sink table "
              + table
              + " on "
              + JdbcUrls.mask(url)
              + ": "
              + e.getMessage(),
          e);
    }
  }

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(url, user, password);
  }

  @Override
  public Writer open(int consumer) {
    return new TableWriter();
  }

  @Override
  public Map<String, Object> audit(String topic) {
    try (Connection c = connect();
        PreparedStatement s =
            c.prepareStatement(
                "select count(*), count(distinct (producer_id, partition, sequence)) from "
                    + table
                    + " where topic = ?")) {
      s.setString(1, topic);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return TopicSink.audit("table", table, r.getLong(1), r.getLong(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot audit " + table + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void attached(Consumers group) {
    this.consumers = group;
  }

  @Override
  public Consumers consumers() {
    return consumers;
  }

  /** One consumer's connection: rows and offsets in one transaction. */
  private final class TableWriter implements Writer {
    private Connection connection;

    private Connection connection() throws SQLException {
      if (connection == null || connection.isClosed()) {
        connection = connect();
        connection.setAutoCommit(false);
      }
      return connection;
    }

    @Override
    public Map<Integer, Long> offsets(String topic, Collection<Integer> partitions) {
      Map<Integer, Long> offsets = new LinkedHashMap<>();
      try {
        Connection c = connection();
        try (PreparedStatement s =
            c.prepareStatement(
                "select partition, next_offset from "
                    + table
                    + "_offsets where topic = ? and partition = any (?)")) {
          Array array = c.createArrayOf("integer", partitions.toArray());
          s.setString(1, topic);
          s.setArray(2, array);
          try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
              offsets.put(r.getInt(1), r.getLong(2));
            }
          }
        }
        c.commit();
        return offsets;
      } catch (SQLException e) {
        drop();
        throw new IllegalStateException(
            "cannot read the offsets of " + topic + " from " + table + ": " + e.getMessage(), e);
      }
    }

    @Override
    public void store(String topic, List<Row> rows, Map<Integer, Long> nextOffsets) {
      try {
        Connection c = connection();
        try (PreparedStatement insert =
                c.prepareStatement(
                    "insert into "
                        + table
                        + " (topic, partition, \"offset\", producer_id, sequence)"
                        + " values (?, ?, ?, ?, ?)");
            PreparedStatement offsets =
                c.prepareStatement(
                    "insert into "
                        + table
                        + "_offsets (topic, partition, next_offset) values (?, ?, ?)"
                        + " on conflict (topic, partition) do update"
                        + " set next_offset = excluded.next_offset")) {
          for (Row row : rows) {
            insert.setString(1, topic);
            insert.setInt(2, row.partition());
            insert.setLong(3, row.offset());
            insert.setLong(4, row.producerId());
            insert.setLong(5, row.sequence());
            insert.addBatch();
          }
          insert.executeBatch();
          for (Map.Entry<Integer, Long> e : nextOffsets.entrySet()) {
            offsets.setString(1, topic);
            offsets.setInt(2, e.getKey());
            offsets.setLong(3, e.getValue());
            offsets.addBatch();
          }
          offsets.executeBatch();
        }
        c.commit();
      } catch (SQLException e) {
        drop();
        throw new IllegalStateException("SQLState " + e.getSQLState() + ": " + e.getMessage(), e);
      }
    }

    /** A failed transaction's connection is closed: the next store opens another. */
    private void drop() {
      if (connection != null) {
        try {
          connection.close();
        } catch (SQLException ignored) {
          // closing a broken connection: nothing more to do
        }
        connection = null;
      }
    }

    @Override
    public void close() {
      drop();
    }
  }
}
