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
 */
public record SqlOutcome(
    Status status, long endNanos, long rows, String reason, int node, boolean connectionFailure) {

  /** A success with its rows, ending now. */
  public static SqlOutcome ok(long rows) {
    return new SqlOutcome(Status.OK, System.nanoTime(), rows, null, 0, false);
  }

  /** A failure of the request, ending now; the node itself is fine. */
  public static SqlOutcome ko(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, false);
  }

  /** A failure of the node (it refused or lost the connection, or is down), ending now. */
  public static SqlOutcome connectionFailure(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, true);
  }

  /** A request whose answer did not come within {@code timeout}: "timed out after 60 s". */
  public static SqlOutcome timedOut(Duration timeout) {
    long millis = timeout.toMillis();
    return ko(TIMED_OUT + (millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms"));
  }

  private static final String TIMED_OUT = "timed out after ";

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
    return nodeUnavailable(sqlState) ? connectionFailure(reason) : ko(reason);
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
    return new SqlOutcome(status, endNanos, rows, reason, index, connectionFailure);
  }
}
