package io.fusillade.gatling.sql;

import io.fusillade.sql.Statements;
import io.fusillade.workload.SqlPlaceholders;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.ArrayList;
import java.util.List;

/** Statements run as one transaction. Immutable. */
public final class SqlTransactionBuilder implements ActionBuilder {
  private final String name;
  private final List<Statement> statements;

  SqlTransactionBuilder(String name, List<Statement> statements) {
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("transaction \"" + name + "\" has no statement");
    }
    this.name = name;
    this.statements = List.copyOf(statements);
  }

  /**
   * One statement of a transaction: SQL and parameter values (expressions, functions, constants).
   */
  public record Statement(String sql, List<Object> params) {}

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    List<SqlPlaceholders.Jdbc> sql = new ArrayList<>();
    List<List<SqlParameter>> params = new ArrayList<>();
    for (Statement statement : statements) {
      sql.add(SqlPlaceholders.toJdbc(statement.sql()));
      params.add(statement.params().stream().map(SqlParameter::of).toList());
    }
    return SqlAction.builder(
        name,
        session -> {
          List<Statements.Bound> bound = new ArrayList<>(sql.size());
          for (int i = 0; i < sql.size(); i++) {
            Object[] values = ResolvedRequest.values(params.get(i), session);
            bound.add(new Statements.Bound(sql.get(i).sql(), sql.get(i).bind(values)));
          }
          return new ResolvedRequest(name, Statements.transaction(bound), List.of());
        });
  }
}
