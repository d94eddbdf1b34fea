package io.fusillade.gatling.sql;

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
 */
public record SqlCall(String name, String sql, List<Object> params, List<String> more) {

  /** Copies the lists. */
  public SqlCall {
    params = params == null ? List.of() : java.util.Collections.unmodifiableList(params);
    more = more == null ? List.of() : List.copyOf(more);
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
    return new SqlCall(name, statements.get(0), values, statements.subList(1, statements.size()));
  }
}
