package io.fusillade.gatling.sql;

import java.util.List;

/**
 * A request decided at run time (see {@link SqlDsl#sqlCall}): its name in reports, its statement
 * ({@code ?} or {@code $n} placeholders) and the values, in placeholder order; or, made by {@link
 * #transaction}, several statements without values run as one transaction.
 *
 * @param name the request's name
 * @param sql the statement (the first one of a transaction)
 * @param params the values, in placeholder order
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
}
