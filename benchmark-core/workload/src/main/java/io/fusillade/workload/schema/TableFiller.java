package io.fusillade.workload.schema;

import io.fusillade.gen.RowGenerator;
import io.fusillade.sql.JdbcValues;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.function.LongConsumer;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Fills a table with generated rows: PostgreSQL's {@code COPY ... FROM STDIN} where the driver is
 * PostgreSQL's (rows are written as CSV into one reusable buffer and streamed), batched inserts of
 * 1,000 rows elsewhere. Reports progress in rows.
 */
public final class TableFiller {
  private static final int BUFFER_BYTES = 1 << 16;
  private static final int BATCH_ROWS = 1000;

  private TableFiller() {}

  /**
   * Inserts {@code rows} rows from {@code generator} into {@code table}.
   *
   * @param progress called with the number of rows written so far, about every 10,000 rows
   * @return the rows written
   */
  public static long fill(
      Connection connection, String table, RowGenerator generator, long rows, LongConsumer progress)
      throws SQLException {
    if (connection.isWrapperFor(PGConnection.class)) {
      return copy(connection.unwrap(PGConnection.class), table, generator, rows, progress);
    }
    return insert(connection, table, generator, rows, progress);
  }

  private static long copy(
      PGConnection connection,
      String table,
      RowGenerator generator,
      long rows,
      LongConsumer progress)
      throws SQLException {
    String columns =
        String.join(", ", generator.columnNames().stream().map(SchemaDdl::quote).toList());
    CopyIn copy =
        connection
            .getCopyAPI()
            .copyIn(
                "copy " + SchemaDdl.quote(table) + " (" + columns + ") from stdin (format csv)");
    CsvBuffer buffer = new CsvBuffer(BUFFER_BYTES * 2);
    Object[] row = new Object[generator.width()];
    try {
      for (long written = 0; written < rows; written++) {
        generator.next(row);
        buffer.row(row);
        if (buffer.size() >= BUFFER_BYTES) {
          copy.writeToCopy(buffer.bytes(), 0, buffer.size());
          buffer.clear();
        }
        if ((written + 1) % 10_000 == 0) {
          progress.accept(written + 1);
        }
      }
      if (buffer.size() > 0) {
        copy.writeToCopy(buffer.bytes(), 0, buffer.size());
      }
      long copied = copy.endCopy();
      progress.accept(copied);
      return copied;
    } finally {
      if (copy.isActive()) {
        copy.cancelCopy();
      }
    }
  }

  private static long insert(
      Connection connection, String table, RowGenerator generator, long rows, LongConsumer progress)
      throws SQLException {
    String columns =
        String.join(", ", generator.columnNames().stream().map(SchemaDdl::quote).toList());
    String marks = String.join(", ", java.util.Collections.nCopies(generator.width(), "?"));
    boolean autoCommit = connection.getAutoCommit();
    connection.setAutoCommit(false);
    try (PreparedStatement insert =
        connection.prepareStatement(
            "insert into "
                + SchemaDdl.quote(table)
                + " ("
                + columns
                + ") values ("
                + marks
                + ")")) {
      Object[] row = new Object[generator.width()];
      for (long written = 0; written < rows; written++) {
        generator.next(row);
        JdbcValues.bind(insert, row);
        insert.addBatch();
        if ((written + 1) % BATCH_ROWS == 0 || written + 1 == rows) {
          insert.executeBatch();
          connection.commit();
          progress.accept(written + 1);
        }
      }
      return rows;
    } finally {
      connection.setAutoCommit(autoCommit);
    }
  }

  /** CSV for COPY, appended byte by byte into one growable array: no String per row. */
  static final class CsvBuffer {
    private byte[] bytes;
    private int size;

    CsvBuffer(int capacity) {
      bytes = new byte[capacity];
    }

    void row(Object[] values) {
      for (int i = 0; i < values.length; i++) {
        if (i > 0) {
          put((byte) ',');
        }
        value(values[i]);
      }
      put((byte) '\n');
    }

    private void value(Object value) {
      if (value == null) {
        return; // an empty, unquoted field is NULL in COPY's CSV
      }
      if (value instanceof Number || value instanceof Boolean || value instanceof java.util.UUID) {
        ascii(value.toString());
      } else if (value instanceof Instant || value instanceof java.time.LocalDate) {
        ascii(value.toString());
      } else {
        quoted(value.toString());
      }
    }

    private void ascii(String text) {
      for (int i = 0; i < text.length(); i++) {
        put((byte) text.charAt(i));
      }
    }

    private void quoted(String text) {
      put((byte) '"');
      byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
      for (byte b : utf8) {
        if (b == '"') {
          put((byte) '"');
        }
        put(b);
      }
      put((byte) '"');
    }

    private void put(byte b) {
      if (size == bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, bytes.length * 2);
      }
      bytes[size++] = b;
    }

    byte[] bytes() {
      return bytes;
    }

    int size() {
      return size;
    }

    void clear() {
      size = 0;
    }

    String asString() {
      return new String(bytes, 0, size, StandardCharsets.UTF_8);
    }
  }
}
