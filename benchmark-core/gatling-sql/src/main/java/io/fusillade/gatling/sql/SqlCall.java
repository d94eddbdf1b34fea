package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlTimeout;
import java.time.Duration;
import java.util.List;

/**
 * A request decided at run time (see {@link SqlDsl#sqlCall}): its name in reports, its statement
 * ({@code ?} or {@code $n} placeholders) and the values, in placeholder order; or, made by {@link
 * #transaction}, several statements run as one transaction, which share one list of values: each
 * statement takes the values its {@code $n} placeholders name.
 *
 * @param name the request's name
 * @param sql the statement (the first one of a transaction)
 * @param params the values, in placeholder order; a transaction's, shared by its statements
 * @param more the statements after {@code sql} in one transaction; empty for a single statement
 * @param timeout its own timeout, or null for the builder's or the protocol's
 * @param maxTries its own most tries, or 0 for the builder's or the protocol's
 */
public record SqlCall(
    String name,
    String sql,
    List<Object> params,
    List<String> more,
    SqlTimeout timeout,
    int maxTries) {

  /** Copies the lists. */
  public SqlCall {
    params = params == null ? List.of() : java.util.Collections.unmodifiableList(params);
    more = more == null ? List.of() : List.copyOf(more);
    if (maxTries < 0) {
      throw new IllegalArgumentException("maxTries must be at least 1: " + maxTries);
    }
  }

  /**
   * Statements, with the builder's or the protocol's timeout and tries.
   *
   * @param name the request's name
   * @param sql the statement (the first one of a transaction)
   * @param params the values, in placeholder order
   * @param more the statements after {@code sql} in one transaction
   */
  public SqlCall(String name, String sql, List<Object> params, List<String> more) {
    this(name, sql, params, more, null, 0);
  }

  /**
   * One statement.
   *
   * @param name the request's name
   * @param sql the statement
   * @param params the values, in placeholder order
   */
  public SqlCall(String name, String sql, List<Object> params) {
    this(name, sql, params, List.of());
  }

  /**
   * Statements without values, run as one transaction (a failure rolls it back).
   *
   * @param name the request's name
   * @param first the first statement
   * @param more the others, in order
   * @return the call
   */
  public static SqlCall transaction(String name, String first, String... more) {
    return new SqlCall(name, first, List.of(), List.of(more));
  }

  /**
   * The same call with its own timeout: past it, it is cancelled on the server.
   *
   * <p>Example: {@code new SqlCall("q1", sql, values).withTimeout(Duration.ofMinutes(30))}.
   */
  public SqlCall withTimeout(Duration value) {
    return withTimeout(value == null ? null : SqlTimeout.of(value));
  }

  /**
   * The same call with its own timeout and the reason its KO gives then.
   *
   * <p>Example: {@code call.withTimeout(new SqlTimeout(left, "timed out: the set's 1 h ran out"))}.
   */
  public SqlCall withTimeout(SqlTimeout value) {
    return new SqlCall(name, sql, params, more, value, maxTries);
  }

  /**
   * The same call with its own most tries (serialization failures and deadlocks are tried again).
   *
   * <p>Example: {@code new SqlCall("transfer", sql, values).withMaxTries(5)}.
   */
  public SqlCall withMaxTries(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("maxTries must be at least 1: " + value);
    }
    return new SqlCall(name, sql, params, more, timeout, value);
  }

  /**
   * Statements run as one transaction (a failure rolls it back), sharing one list of values: each
   * statement's {@code $n} placeholders take the n-th value ({@code $1} in two statements is the
   * same value in both).
   *
   * @param name the request's name
   * @param statements the statements, in order, at least one
   * @param values the values the statements share
   * @return the call
   */
  public static SqlCall transaction(String name, List<String> statements, List<Object> values) {
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("transaction \"" + name + "\" has no statement");
    }
    return new SqlCall(
        name, statements.get(0), values, statements.subList(1, statements.size()), null, 0);
  }
}
