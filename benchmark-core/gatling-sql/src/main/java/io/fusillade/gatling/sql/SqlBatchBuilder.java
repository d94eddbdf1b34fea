package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.sql.Statements;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One statement executed for several sets of values as a JDBC batch. Immutable, in Gatling's style:
 * it wraps one {@link SqlBatch} and every method returns a new builder.
 */
public final class SqlBatchBuilder implements ActionBuilder {
  private final SqlBatch batch;

  SqlBatchBuilder(SqlBatch batch) {
    this.batch = batch;
  }

  /** What this builder holds (for tests). */
  SqlBatch batch() {
    return batch;
  }

  /**
   * The sets of values, one per execution, computed from the session: a list whose elements are
   * {@code Object[]} or {@code List<?>}, each holding the values of the placeholders in order.
   *
   * <p>Example: {@code sql("load").batch("insert into t values (?, ?)").parameterSets(session ->
   * rows)}.
   */
  public SqlBatchBuilder parameterSets(Function<Session, List<?>> sets) {
    return new SqlBatchBuilder(batch.withParameterSets(sets));
  }

  /**
   * This request's timeout, over the protocol's {@code requestTimeout}: past it the request is
   * cancelled on the server and is KO "timed out after ...".
   *
   * <p>Example: {@code sql("load").batch(sql).parameterSets(rows).timeout(Duration.ofMinutes(10))}.
   */
  public SqlBatchBuilder timeout(java.time.Duration timeout) {
    return new SqlBatchBuilder(batch.withLimits(batch.limits().withTimeout(timeout)));
  }

  /**
   * This request's most tries, over the protocol's {@code maxTries}: it is sent again after a
   * serialization failure (SQLState 40001) or a deadlock (40P01), as pgbench's {@code --max-tries}.
   *
   * <p>Example: {@code sql("load").batch(sql).parameterSets(rows).maxTries(5)}.
   */
  public SqlBatchBuilder maxTries(int tries) {
    return new SqlBatchBuilder(batch.withLimits(batch.limits().withMaxTries(tries)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    SqlBatch b = batch;
    String label = b.name().toString();
    if (b.parameterSets() == null) {
      throw new IllegalStateException(
          "batch \"" + label + "\" needs .parameterSets(session -> ...)");
    }
    Expression<SqlPlaceholders.Jdbc> text = text(b);
    return SqlAction.builder(
        b.name(),
        (session, name) -> {
          SqlPlaceholders.Jdbc jdbc = text.resolve(session);
          List<?> sets = b.parameterSets().apply(new Session(session));
          if (sets == null) {
            throw new IllegalArgumentException("batch \"" + name + "\" got no parameter sets");
          }
          List<Object[]> bound = new ArrayList<>(sets.size());
          for (Object set : sets) {
            Object[] values = set instanceof Object[] array ? array : ((List<?>) set).toArray();
            bound.add(jdbc.bind(values));
          }
          return new ResolvedRequest(name, Statements.batch(jdbc.sql(), bound), List.of())
              .limited(b.limits());
        });
  }

  /**
   * The statement's text as the driver takes it: Gatling EL, as a single statement's is ({@link
   * SqlStatementBuilder#jdbc}).
   */
  static Expression<SqlPlaceholders.Jdbc> text(SqlBatch b) {
    return SqlStatementBuilder.jdbc(b.sql());
  }
}
