package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.Statements;
import io.fusillade.workload.SqlPlaceholders;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** A query or update ready to run, with its parameters and checks. Immutable. */
public final class SqlStatementBuilder implements ActionBuilder {
  private final String name;
  private final String sql;
  private final List<SqlParameter> parameters;
  private final List<SqlCheck> checks;
  private final int fetchSize;

  SqlStatementBuilder(
      String name,
      String sql,
      List<SqlParameter> parameters,
      List<SqlCheck> checks,
      int fetchSize) {
    this.name = name;
    this.sql = sql;
    this.parameters = List.copyOf(parameters);
    this.checks = List.copyOf(checks);
    this.fetchSize = fetchSize;
  }

  /**
   * The values of the statement's placeholders, in order. Each is a Gatling expression string
   * ({@code "#{id}"} reads the session attribute {@code id}), a {@code Function<Session, Object>},
   * or a constant.
   */
  public SqlStatementBuilder params(Object... values) {
    List<SqlParameter> list = new ArrayList<>(values.length);
    for (Object value : values) {
      list.add(SqlParameter.of(value));
    }
    return new SqlStatementBuilder(name, sql, list, checks, fetchSize);
  }

  /** Adds a parameter computed from the session. */
  public SqlStatementBuilder param(Function<io.gatling.javaapi.core.Session, Object> value) {
    List<SqlParameter> list = new ArrayList<>(parameters);
    list.add(SqlParameter.of(value));
    return new SqlStatementBuilder(name, sql, list, checks, fetchSize);
  }

  /** Checks on the result (see {@link SqlDsl#rowCount}); a failed check makes the request KO. */
  public SqlStatementBuilder check(SqlCheck... more) {
    List<SqlCheck> list = new ArrayList<>(checks);
    list.addAll(List.of(more));
    return new SqlStatementBuilder(name, sql, parameters, list, fetchSize);
  }

  /**
   * Streams the result {@code rows} at a time (in a transaction, as PostgreSQL's driver needs)
   * instead of letting the driver buffer it whole: for queries that return many rows.
   */
  public SqlStatementBuilder fetchSize(int rows) {
    return new SqlStatementBuilder(name, sql, parameters, checks, rows);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(sql);
    Set<String> capture = new HashSet<>();
    checks.forEach(check -> capture.addAll(check.columns()));
    Set<String> columns = Set.copyOf(capture);
    List<SqlParameter> params = parameters;
    return SqlAction.builder(
        name,
        session ->
            new ResolvedRequest(
                name,
                Statements.query(
                    jdbc.sql(),
                    jdbc.bind(ResolvedRequest.values(params, session)),
                    columns,
                    fetchSize),
                checks));
  }
}
