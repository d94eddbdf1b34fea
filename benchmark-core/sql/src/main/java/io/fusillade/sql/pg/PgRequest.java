package io.fusillade.sql.pg;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlResult;
import io.fusillade.sql.SqlTimeout;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One request on a connection, from its first message to the ReadyForQuery that ends it: it counts
 * the rows of every CommandComplete, keeps the first row's checked columns and the first error.
 * Rows are never held: each DataRow is skipped as it arrives, so a large result streams through.
 */
final class PgRequest {
  final Object work; // a Statements.Query, Transaction or Batch
  final Set<String> capture;
  final long startNanos;
  final SqlTimeout timeout;
  final long deadlineNanos; // startNanos + the timeout
  private final List<SqlCheck> checks;
  private final Consumer<SqlOutcome> done;
  private boolean ended; // its outcome was handed over (a timed out request may still be sent)
  private long cancelledNanos; // when it timed out while the server ran it, and was cancelled

  private long rows;
  private boolean firstRowSeen;
  private Map<String, Object> firstRow = Map.of();
  private final boolean allRowsWanted; // a check reads every row
  private final List<Map<String, Object>> allRows;
  private String[] names; // every column's, when every row is kept
  private int[] types;
  private int[] captureColumns; // indexes of the captured columns in each DataRow
  private String[] captureNames;
  private int[] captureTypes;
  private String errorState;
  private String errorMessage;
  private List<String> parsed; // statements this request parsed, in order
  private int parsesConfirmed;

  PgRequest(
      Object work,
      Set<String> capture,
      List<SqlCheck> checks,
      Consumer<SqlOutcome> done,
      long startNanos,
      SqlTimeout timeout) {
    this.work = work;
    this.capture = capture;
    this.allRowsWanted = capture.contains(SqlResult.ALL_ROWS);
    this.allRows = allRowsWanted ? new ArrayList<>() : List.of();
    this.checks = checks;
    this.done = done;
    this.startNanos = startNanos;
    this.timeout = timeout;
    this.deadlineNanos = startNanos + timeout.nanos();
  }

  /** Whether its timeout has passed at {@code now}. */
  boolean expired(long now) {
    return now - deadlineNanos > 0;
  }

  /** Whether its outcome has been handed over: answered, failed, or timed out. */
  boolean ended() {
    return ended;
  }

  /**
   * Ends it as timed out while the server runs it ({@code now}): the caller cancels it on the
   * server; its answer, when it comes, is dropped.
   */
  void cancelled(long now) {
    cancelledNanos = now;
    fail(SqlOutcome.timedOut(timeout));
  }

  /** When it was {@linkplain #cancelled cancelled}, or 0. */
  long cancelledNanos() {
    return cancelledNanos;
  }

  /** Notes that this request parses statement {@code name} (its ParseComplete comes later). */
  void parsing(String name) {
    if (parsed == null) {
      parsed = new ArrayList<>(2);
    }
    parsed.add(name);
  }

  void parseComplete() {
    parsesConfirmed++;
  }

  /** The statements this request parsed that the server did not confirm: they do not exist. */
  List<String> unconfirmedParses() {
    return parsed == null ? List.of() : parsed.subList(parsesConfirmed, parsed.size());
  }

  boolean failed() {
    return errorMessage != null;
  }

  /** RowDescription: where the checked columns are, and their types. */
  void rowDescription(ByteBuf body) {
    int fields = body.readUnsignedShort();
    List<Integer> indexes = new ArrayList<>();
    List<String> names = new ArrayList<>();
    List<Integer> types = new ArrayList<>();
    String[] allNames = new String[fields];
    int[] allTypes = new int[fields];
    for (int i = 0; i < fields; i++) {
      String name = PgConnection.readString(body).toLowerCase(Locale.ROOT);
      body.skipBytes(4 + 2); // table oid, column number
      int type = body.readInt();
      body.skipBytes(2 + 4 + 2); // type size, modifier, format
      allNames[i] = name;
      allTypes[i] = type;
      if (capture.contains(name) || capture.contains(SqlResult.columnAt(i + 1))) {
        indexes.add(i);
        names.add(name);
        types.add(type);
      }
    }
    captureColumns = indexes.stream().mapToInt(Integer::intValue).toArray();
    captureNames = names.toArray(String[]::new);
    captureTypes = types.stream().mapToInt(Integer::intValue).toArray();
    this.names = allNames;
    this.types = allTypes;
  }

  /** Whether DataRows matter: a check reads the first row's columns, and it has not come yet. */
  boolean wantsRows() {
    return allRowsWanted || (!firstRowSeen && !capture.isEmpty());
  }

  /** Every column of a DataRow, by name, in column order (when a check reads every row). */
  private Map<String, Object> wholeRow(ByteBuf body) {
    Map<String, Object> values = new LinkedHashMap<>();
    int columns = body.readUnsignedShort();
    for (int i = 0; i < columns; i++) {
      int length = body.readInt();
      String text =
          length < 0 ? null : body.readCharSequence(length, StandardCharsets.UTF_8).toString();
      values.put(names[i], PgValues.value(text, types[i]));
    }
    return Collections.unmodifiableMap(values);
  }

  /** DataRow: only the first row's checked columns are read (every row's when a check asks). */
  void dataRow(ByteBuf body) {
    if (allRowsWanted) {
      allRows.add(wholeRow(body.duplicate()));
    }
    if (firstRowSeen) {
      return;
    }
    firstRowSeen = true;
    if (captureColumns == null || captureColumns.length == 0) {
      return;
    }
    Map<String, Object> values = new HashMap<>();
    int columns = body.readUnsignedShort();
    int wanted = 0;
    for (int i = 0; i < columns && wanted < captureColumns.length; i++) {
      int length = body.readInt();
      if (i != captureColumns[wanted]) {
        body.skipBytes(Math.max(0, length));
        continue;
      }
      String text =
          length < 0 ? null : body.readCharSequence(length, StandardCharsets.UTF_8).toString();
      Object value = PgValues.value(text, captureTypes[wanted]);
      values.put(captureNames[wanted], value);
      values.put(SqlResult.columnAt(i + 1), value);
      wanted++;
    }
    firstRow = values;
  }

  /**
   * CommandComplete: "SELECT 5", "INSERT 0 5", "UPDATE 5"... adds the count that ends the tag (none
   * for "BEGIN", "CREATE TABLE"...). Read in place: it comes with every request.
   */
  void commandComplete(ByteBuf data, int from, int to) {
    int end = to;
    while (end > from && data.getByte(end - 1) == 0) {
      end--;
    }
    long count = 0;
    long scale = 1;
    int i = end - 1;
    for (; i >= from; i--) {
      byte b = data.getByte(i);
      if (b < '0' || b > '9') {
        break;
      }
      count += (b - '0') * scale;
      scale *= 10;
    }
    if (i < end - 1 && i >= from && data.getByte(i) == ' ') {
      rows += count;
    }
  }

  /** ErrorResponse: the first error is the request's; the server skips to the Sync after it. */
  void error(String sqlState, String message) {
    if (errorMessage == null) {
      errorState = sqlState;
      errorMessage = message;
    }
  }

  /** Hands the outcome over once ReadyForQuery has arrived (not when it had timed out). */
  void complete() {
    if (ended) {
      return;
    }
    ended = true;
    done.accept(
        failed()
            ? SqlOutcome.error(errorState, errorMessage)
            : SqlOutcome.checked(new SqlResult(rows, firstRow, allRows), checks));
  }

  /** Ends the request with {@code outcome} without an answer from the server (once). */
  void fail(SqlOutcome outcome) {
    if (ended) {
      return;
    }
    ended = true;
    done.accept(outcome);
  }
}
