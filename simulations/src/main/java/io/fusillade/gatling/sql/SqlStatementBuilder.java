package io.fusillade.gatling.sql;

import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** A SQL request ready to run, with its parameters. Immutable. */
public final class SqlStatementBuilder implements ActionBuilder {
  private final String name;
  private final String sql;
  private final List<SqlParameter> parameters;

  SqlStatementBuilder(String name, String sql, List<SqlParameter> parameters) {
    this.name = name;
    this.sql = sql;
    this.parameters = List.copyOf(parameters);
  }

  /**
   * The values of the statement's {@code ?} placeholders, in order. Each is a Gatling expression
   * string ({@code "#{id}"} reads the session attribute {@code id}), a {@code Function<Session,
   * Object>}, or a constant.
   */
  public SqlStatementBuilder params(Object... values) {
    List<SqlParameter> list = new ArrayList<>(values.length);
    for (Object value : values) {
      list.add(SqlParameter.of(value));
    }
    return new SqlStatementBuilder(name, sql, list);
  }

  /** Convenience for a parameter computed from the session. */
  public SqlStatementBuilder param(Function<io.gatling.javaapi.core.Session, Object> value) {
    List<SqlParameter> list = new ArrayList<>(parameters);
    list.add(SqlParameter.of(value));
    return new SqlStatementBuilder(name, sql, list);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        SqlComponents components = ctx.protocolComponentsRegistry().components(SqlProtocol.KEY);
        return new SqlAction(name, sql, parameters, components, next);
      }
    };
  }
}
