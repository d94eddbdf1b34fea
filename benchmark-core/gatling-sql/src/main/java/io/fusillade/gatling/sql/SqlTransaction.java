package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import java.util.List;

/** A transaction as configured: the value a {@link SqlTransactionBuilder} wraps. */
record SqlTransaction(Expression<String> name, List<SqlTransactionBuilder.Statement> statements) {

  SqlTransaction {
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("transaction \"" + name + "\" has no statement");
    }
    statements = List.copyOf(statements);
  }
}
