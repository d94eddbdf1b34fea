package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import java.util.List;

/**
 * A transaction as configured: the value a {@link SqlTransactionBuilder} wraps.
 *
 * @param limits its own timeout and tries
 */
record SqlTransaction(
    Expression<String> name,
    List<SqlTransactionBuilder.Statement> statements,
    RequestLimits limits) {

  SqlTransaction(Expression<String> name, List<SqlTransactionBuilder.Statement> statements) {
    this(name, statements, RequestLimits.NONE);
  }

  SqlTransaction {
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("transaction \"" + name + "\" has no statement");
    }
    statements = List.copyOf(statements);
  }

  SqlTransaction withLimits(RequestLimits value) {
    return new SqlTransaction(name, statements, value);
  }
}
