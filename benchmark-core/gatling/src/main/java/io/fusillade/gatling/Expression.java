package io.fusillade.gatling;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.Objects;
import java.util.function.Function;
import scala.Function1;

/**
 * A value that may differ for each virtual user: a Gatling EL string ({@code "#{id}"}), a function
 * of the session, or a constant. It is what every protocol resolves for request names, SQL
 * parameters, message keys and search bodies, so that the three are written and read one way.
 *
 * <pre>{@code
 * Expression.el("#{customer}")                  // the session attribute, with its own type
 * Expression.text("order #{kind}")              // EL rendered as text (request names)
 * Expression.of(session -> session.getInt("n") + 1)
 * Expression.constant(42)
 * }</pre>
 *
 * <p>An EL string without {@code #{} is a constant: nothing is parsed per request. A constant is
 * known when the action is built ({@link #isConstant()}), which lets an action prepare what
 * depends on it (a request name's reporter) once.
 *
 * @param <T> the type of the resolved value
 */
public final class Expression<T> {
  /** Resolves an expression for one session; throws IllegalArgumentException when it cannot. */
  @FunctionalInterface
  private interface Resolver<T> {
    T resolve(Session session);
  }

  private final String text;
  private final boolean constant;
  private final T value;
  private final Resolver<T> resolver;

  private Expression(String text, boolean constant, T value, Resolver<T> resolver) {
    this.text = text;
    this.constant = constant;
    this.value = value;
    this.resolver = resolver;
  }

  /**
   * A Gatling EL string resolved to the attribute's own value ({@code "#{id}"} gives the {@code
   * Integer} the session holds, not its text); without {@code #{} the string itself, a constant.
   */
  public static Expression<Object> el(String text) {
    Objects.requireNonNull(text, "an EL expression cannot be null");
    if (!isEl(text)) {
      return new Expression<>(text, true, text, session -> text);
    }
    return fromGatling(text, Expressions.toAnyExpression(text));
  }

  /** A Gatling EL string rendered as text ({@code "order #{kind}"}); without {@code #{} a constant. */
  public static Expression<String> text(String text) {
    Objects.requireNonNull(text, "an EL expression cannot be null");
    if (!isEl(text)) {
      return constant(text);
    }
    return fromGatling(text, Expressions.toStringExpression(text));
  }

  /** A value computed from the session (Gatling's Java {@code Session}) for each request. */
  public static <T> Expression<T> of(Function<io.gatling.javaapi.core.Session, T> function) {
    Objects.requireNonNull(function, "a session function cannot be null");
    return new Expression<>(
        "(function)",
        false,
        null,
        session -> function.apply(new io.gatling.javaapi.core.Session(session)));
  }

  /** The same value for every request. */
  public static <T> Expression<T> constant(T value) {
    return new Expression<>(String.valueOf(value), true, value, session -> value);
  }

  private static boolean isEl(String text) {
    return text.contains("#{");
  }

  private static <T> Expression<T> fromGatling(
      String text, Function1<Session, Validation<T>> expression) {
    return new Expression<>(
        text,
        false,
        null,
        session -> {
          Validation<T> result = expression.apply(session);
          if ((Object) result instanceof Failure failure) {
            throw new IllegalArgumentException(failure.message());
          }
          return result.toOption().get();
        });
  }

  /**
   * The value for this session.
   *
   * @throws IllegalArgumentException when it cannot be resolved (a missing session attribute); the
   *     message is Gatling's ("No attribute named 'id' is defined")
   */
  public T resolve(Session session) {
    return constant ? value : resolver.resolve(session);
  }

  /** Whether every session gets the same value ({@link #constantValue()}). */
  public boolean isConstant() {
    return constant;
  }

  /** The value of a constant expression; throws for one that depends on the session. */
  public T constantValue() {
    if (!constant) {
      throw new IllegalStateException(text + " depends on the session");
    }
    return value;
  }

  /**
   * An expression of {@code f} of this one's value: a constant stays a constant (computed once
   * here), anything else is mapped per request.
   */
  public <R> Expression<R> map(Function<? super T, ? extends R> f) {
    if (constant) {
      R mapped = f.apply(value);
      return new Expression<>(text, true, mapped, session -> mapped);
    }
    Resolver<T> inner = resolver;
    return new Expression<>(text, false, null, session -> f.apply(inner.resolve(session)));
  }

  /**
   * The same expression, shown as {@code text} by {@link #toString()}: in messages, and as the name
   * a request is reported under when its own name cannot be resolved.
   */
  public Expression<T> describedAs(String text) {
    return new Expression<>(text, constant, value, resolver);
  }

  /** How it was written: the EL string, the constant's text, or {@code (function)}. */
  @Override
  public String toString() {
    return text;
  }
}
