package io.fusillade.sql;

import io.fusillade.record.Status;
import java.time.Duration;
import java.util.List;

/**
 * How one request ended.
 *
 * @param endNanos {@link System#nanoTime()} when the last row was read or the failure seen
 * @param rows rows read (queries) or affected (updates, batches, transactions)
 * @param reason for {@link Status#KO}: a short, low-cardinality reason ("SQLState 23505: ...")
 * @param node the index of the node that ran it in its cluster (0 for a single database)
 * @param connectionFailure true when the request failed because of its node, not of itself: no
 *     connection could be had (refused, timed out, the node is down) or the connection died under
 *     it
 * @param sqlState the server's SQLState of a KO it answered with an error, else null
 * @param retried the SQLStates of the tries that failed before this outcome and were tried again
 *     ({@link SqlTries}), in order; empty when the request was tried once
 */
public record SqlOutcome(
    Status status,
    long endNanos,
    long rows,
    String reason,
    int node,
    boolean connectionFailure,
    String sqlState,
    List<String> retried) {

  /** Copies the list. */
  public SqlOutcome {
    retried = List.copyOf(retried);
  }

  /** A success with its rows, ending now. */
  public static SqlOutcome ok(long rows) {
    return new SqlOutcome(Status.OK, System.nanoTime(), rows, null, 0, false, null, List.of());
  }

  /** A failure of the request, ending now; the node itself is fine. */
  public static SqlOutcome ko(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, false, null, List.of());
  }

  /** A failure of the node (it refused or lost the connection, or is down), ending now. */
  public static SqlOutcome connectionFailure(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, true, null, List.of());
  }

  /** A request whose answer did not come within {@code timeout}: "timed out after 60 s". */
  public static SqlOutcome timedOut(Duration timeout) {
    return timedOut(SqlTimeout.of(timeout));
  }

  /** A request that did not end within its timeout, cancelled: KO with the timeout's reason. */
  public static SqlOutcome timedOut(SqlTimeout timeout) {
    return ko(timeout.reason());
  }

  /** How many times the request was sent: 1, and one more for each retry. */
  public int tries() {
    return retried.size() + 1;
  }

  private static final String TIMED_OUT = "timed out";

  /**
   * Whether the server answered: OK, or refused the statement (an SQLState, a failed check); not a
   * connection it lost or refused, nor the client's own timeout.
   */
  public boolean fromServer() {
    return status == Status.OK
        || !(connectionFailure || (reason != null && reason.startsWith(TIMED_OUT)));
  }

  /**
   * The outcome of a statement the database rejected with {@code sqlState}: a node failure for the
   * states that mean the node is going away (see {@link #nodeUnavailable}), a request failure else.
   * The reason reads "SQLState 42P01: ERROR: relation ... does not exist".
   */
  public static SqlOutcome error(String sqlState, String message) {
    String reason = reason(sqlState, message);
    return new SqlOutcome(
        Status.KO, System.nanoTime(), 0, reason, 0, nodeUnavailable(sqlState), sqlState, List.of());
  }

  /**
   * "SQLState 42P01: message": short, and the same for the same error; the message alone without a
   * state.
   */
  static String reason(String sqlState, String message) {
    return sqlState == null ? message : "SQLState " + sqlState + ": " + message;
  }

  /**
   * The outcome of a statement that returned {@code result}: KO with the first failed check's
   * message ("check failed: expected 1 rows, got 0"), OK with the rows otherwise.
   */
  public static SqlOutcome checked(SqlResult result, List<SqlCheck> checks) {
    for (SqlCheck check : checks) {
      String failure = check.verify(result);
      if (failure != null) {
        return ko("check failed: " + failure);
      }
    }
    return ok(result.rows());
  }

  /**
   * True for the SQLStates that mean the node itself is unavailable, not the statement wrong: class
   * 08 (connection exceptions) and PostgreSQL's 57P01-57P03 (shutting down, crashed, not yet
   * accepting connections), which a stopping server sends before it refuses connections.
   */
  public static boolean nodeUnavailable(String sqlState) {
    return sqlState != null
        && (sqlState.startsWith("08")
            || sqlState.equals("57P01")
            || sqlState.equals("57P02")
            || sqlState.equals("57P03"));
  }

  SqlOutcome onNode(int index) {
    return new SqlOutcome(
        status, endNanos, rows, reason, index, connectionFailure, sqlState, retried);
  }

  /** The same outcome, after the failed tries {@code states} (see {@link #retried}). */
  SqlOutcome afterRetries(List<String> states) {
    return states.isEmpty()
        ? this
        : new SqlOutcome(status, endNanos, rows, reason, node, connectionFailure, sqlState, states);
  }
}
