package io.fusillade.gatling.sql;

import io.fusillade.sql.Statements;
import io.fusillade.workload.SqlPlaceholders;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** One statement executed for several sets of values as a JDBC batch. Immutable. */
public final class SqlBatchBuilder implements ActionBuilder {
  private final String name;
  private final String sql;
  private final Function<Session, List<?>> parameterSets;

  SqlBatchBuilder(String name, String sql, Function<Session, List<?>> parameterSets) {
    this.name = name;
    this.sql = sql;
    this.parameterSets = parameterSets;
  }

  /**
   * The sets of values, one per execution, computed from the session: a list whose elements are
   * {@code Object[]} or {@code List<?>}, each holding the values of the placeholders in order.
   */
  public SqlBatchBuilder parameterSets(Function<Session, List<?>> sets) {
    return new SqlBatchBuilder(name, sql, sets);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    if (parameterSets == null) {
      throw new IllegalStateException(
          "batch \"" + name + "\" needs .parameterSets(session -> ...)");
    }
    SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(sql);
    return SqlAction.builder(
        name,
        session -> {
          List<?> sets = parameterSets.apply(new Session(session));
          if (sets == null) {
            throw new IllegalArgumentException("batch \"" + name + "\" got no parameter sets");
          }
          List<Object[]> bound = new ArrayList<>(sets.size());
          for (Object set : sets) {
            Object[] values = set instanceof Object[] array ? array : ((List<?>) set).toArray();
            bound.add(jdbc.bind(values));
          }
          return new ResolvedRequest(name, Statements.batch(jdbc.sql(), bound), List.of());
        });
  }
}
