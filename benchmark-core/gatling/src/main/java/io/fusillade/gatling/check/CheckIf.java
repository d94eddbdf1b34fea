package io.fusillade.gatling.check;

import io.fusillade.gatling.Expression;
import java.util.List;
import java.util.function.Function;

/**
 * The checks that a request runs only for some sessions, as Gatling's {@code
 * checkIf(...).then(...)}.
 *
 * <pre>{@code
 * sql("order").query("select status from orders where id = ?").params("#{orderId}")
 *     .checkIf("#{audit}").then(column("status").is("paid"))
 * }</pre>
 *
 * @param <R> the response checked
 * @param <B> the request builder that {@link #then} returns
 */
public final class CheckIf<R, B> {
  private final Expression<Boolean> condition;
  private final Function<List<Check<R, ?>>, B> add;

  /**
   * @param condition when the checks apply
   * @param add gives the request builder with the checks added
   */
  public CheckIf(Expression<Boolean> condition, Function<List<Check<R, ?>>, B> add) {
    this.condition = condition;
    this.add = add;
  }

  /** The condition of a Gatling EL string that resolves to {@code true} or {@code "true"}. */
  public static Expression<Boolean> el(String condition) {
    return Expression.el(condition).map(v -> Boolean.parseBoolean(String.valueOf(v)));
  }

  /**
   * The request, with {@code checks} run only when the condition holds.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(rowCount().is(1))}.
   */
  @SafeVarargs
  public final B then(Check<R, ?>... checks) {
    return add.apply(List.of(checks).stream().<Check<R, ?>>map(c -> c.onlyIf(condition)).toList());
  }
}
