package io.fusillade.gatling.check;

import io.fusillade.gatling.Expression;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A check on a response, in Gatling's idiom: an extractor finds a value in the response ({@code
 * column("id")}, {@code jsonPath("$.hits.total.value")}, {@code offset()}), validations judge it
 * ({@code is}, {@code not}, {@code in}, {@code gte}, {@code exists}...), {@code transform} changes
 * it first, {@code saveAs} puts it in the virtual user's session for the next requests ({@code
 * "#{key}"}), and {@code checkIf} runs it only for some sessions. Every protocol's request takes
 * such checks with {@code .check(...)}; a failed check makes the request KO with its message.
 * Immutable: each method returns a changed copy.
 *
 * <pre>{@code
 * sql("new order").query("insert into orders(customer) values (?) returning id")
 *     .check(rowCount().is(1), column("id").saveAs("orderId"))
 * logs("errors").search("{\"query\":{\"term\":{\"status\":#{status}}}}")
 *     .check(hits().gte(1), jsonPath("$.hits.hits[0]._id").saveAs("firstId"))
 * kafka("write").send("events").value("#{payload}").check(offset().gte(0))
 * }</pre>
 *
 * <p>Without a validation a check wants the value to exist ({@link #exists()}). Validations add up:
 * {@code rowCount().gte(1).lte(50)} wants both. Values compare as numbers when both are numbers (or
 * a number and a text that reads as one), else as text, so {@code is(42)} matches an {@code int}, a
 * {@code bigint}, a JSON number or the text {@code "42"}. A value is saved only when every check of
 * the request passed.
 *
 * @param <R> the response the protocol checks (a SQL result, a search response, a send's metadata)
 * @param <X> the extracted value's type
 */
public final class Check<R, X> {
  private final String name;
  private final Set<String> needs;
  private final Function<? super R, Optional<X>> extractor;
  private final List<Validation<X>> validations;
  private final String saveAs;
  private final Expression<Boolean> condition;

  private Check(
      String name,
      Set<String> needs,
      Function<? super R, Optional<X>> extractor,
      List<Validation<X>> validations,
      String saveAs,
      Expression<Boolean> condition) {
    this.name = name;
    this.needs = needs;
    this.extractor = extractor;
    this.validations = List.copyOf(validations);
    this.saveAs = saveAs;
    this.condition = condition;
  }

  /**
   * A check of {@code extractor}'s value, for protocols to offer as their extractors.
   *
   * <p>Example: {@code Check.of("partition", Set.of(), (RecordMetadata m) ->
   * Optional.of(m.partition()))}.
   *
   * @param name how messages name it, e.g. {@code column(id)}
   * @param needs what of the response the extractor reads (a SQL result's columns), for a protocol
   *     that keeps only what checks need
   * @param extractor the value, or empty when the response has none
   */
  public static <R, X> Check<R, X> of(
      String name, Set<String> needs, Function<? super R, Optional<X>> extractor) {
    return new Check<>(name, Set.copyOf(needs), extractor, List.of(), null, null);
  }

  private Check<R, X> with(Validation<X> validation) {
    List<Validation<X>> more = new ArrayList<>(validations);
    more.add(validation);
    return new Check<>(name, needs, extractor, more, saveAs, condition);
  }

  /**
   * Changes the value before it is validated or saved.
   *
   * <p>Example: {@code column("name").transform(n -> n.toString().toUpperCase()).is("ADA")}.
   */
  public <Y> Check<R, Y> transform(Function<? super X, ? extends Y> function) {
    if (!validations.isEmpty()) {
      throw new IllegalStateException(
          name + ": transform(...) comes before the validations, as in Gatling");
    }
    Function<? super R, Optional<X>> inner = extractor;
    Function<R, Optional<Y>> mapped = response -> inner.apply(response).map(function);
    return new Check<>(name + ".transform", needs, mapped, List.of(), saveAs, condition);
  }

  /**
   * The value equals {@code expected} (numbers by value, anything else as text).
   *
   * <p>Example: {@code column("status").is("paid")}.
   */
  public Check<R, X> is(Object expected) {
    return with(Validation.is(Expression.constant(expected)));
  }

  /**
   * The value equals a Gatling EL string's value.
   *
   * <p>Example: {@code column("customer").isEL("#{customer}")}.
   */
  public Check<R, X> isEL(String expected) {
    return with(Validation.is(Expression.el(expected)));
  }

  /**
   * The value equals what {@code expected} computes from the session.
   *
   * <p>Example: {@code column("n").is(session -> session.getInt("n"))}.
   */
  public Check<R, X> is(Function<io.gatling.javaapi.core.Session, ?> expected) {
    return with(Validation.is(Expression.of(expected)));
  }

  /**
   * The value differs from {@code unexpected}.
   *
   * <p>Example: {@code column("status").not("failed")}.
   */
  public Check<R, X> not(Object unexpected) {
    return with(Validation.not(unexpected));
  }

  /**
   * The value is one of {@code values}.
   *
   * <p>Example: {@code partition().in(0, 1)}.
   */
  public Check<R, X> in(Object... values) {
    return in(List.of(values));
  }

  /**
   * The value is one of {@code values}.
   *
   * <p>Example: {@code column("status").in(List.of("new", "paid"))}.
   */
  public Check<R, X> in(Collection<?> values) {
    return with(Validation.in(List.copyOf(values)));
  }

  /**
   * The response has the value (the default when a check has no validation).
   *
   * <p>Example: {@code jsonPath("$.hits.hits[0]._id").exists()}.
   */
  public Check<R, X> exists() {
    return with(Validation.exists());
  }

  /**
   * The response has no such value.
   *
   * <p>Example: {@code jsonPath("$.error").notExists()}.
   */
  public Check<R, X> notExists() {
    return with(Validation.notExists());
  }

  /**
   * The value is greater than {@code bound}.
   *
   * <p>Example: {@code hits().gt(0)}.
   */
  public Check<R, X> gt(Object bound) {
    return with(Validation.compared(">", bound, c -> c > 0));
  }

  /**
   * The value is greater than or equal to {@code bound}.
   *
   * <p>Example: {@code rowCount().gte(1)}.
   */
  public Check<R, X> gte(Object bound) {
    return with(Validation.compared(">=", bound, c -> c >= 0));
  }

  /**
   * The value is less than {@code bound}.
   *
   * <p>Example: {@code rowCount().lt(100)}.
   */
  public Check<R, X> lt(Object bound) {
    return with(Validation.compared("<", bound, c -> c < 0));
  }

  /**
   * The value is less than or equal to {@code bound}.
   *
   * <p>Example: {@code rowCount().gte(1).lte(50)}.
   */
  public Check<R, X> lte(Object bound) {
    return with(Validation.compared("<=", bound, c -> c <= 0));
  }

  /**
   * The value passes {@code test}; {@code description} names it in the failure message.
   *
   * <p>Example: {@code column("email").validate("an e-mail", v -> v.toString().contains("@"))}.
   */
  public Check<R, X> validate(String description, Predicate<? super X> test) {
    return with(Validation.custom(description, test));
  }

  /**
   * Saves the value in the session as attribute {@code key} when the request is OK.
   *
   * <p>Example: {@code column("id").saveAs("orderId")}, then {@code .params("#{orderId}")}.
   */
  public Check<R, X> saveAs(String key) {
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException(name + ": saveAs needs an attribute name");
    }
    return new Check<>(name, needs, extractor, validations, key, condition);
  }

  /**
   * Runs this check only for the sessions where {@code condition} holds; the others pass it.
   *
   * <p>Example: {@code column("id").checkIf(session -> session.getBoolean("audit"))}.
   */
  public Check<R, X> checkIf(Function<io.gatling.javaapi.core.Session, Boolean> condition) {
    return onlyIf(Expression.of(condition));
  }

  /**
   * Runs this check only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code hits().gte(1).checkIf("#{audit}")}.
   */
  public Check<R, X> checkIf(String condition) {
    return onlyIf(Expression.el(condition).map(v -> Boolean.parseBoolean(String.valueOf(v))));
  }

  Check<R, X> onlyIf(Expression<Boolean> more) {
    Expression<Boolean> both = more;
    if (condition != null) {
      Expression<Boolean> first = condition;
      both =
          Expression.of(
              session -> first.resolve(session.asScala()) && more.resolve(session.asScala()));
    }
    return new Check<>(name, needs, extractor, validations, saveAs, both);
  }

  /** What of the response the extractor reads (a SQL result's columns); empty for the rest. */
  public Set<String> needs() {
    return needs;
  }

  /** The session attribute the value goes to, or null. */
  public String savedAs() {
    return saveAs;
  }

  /**
   * Runs the check on one response of one virtual user.
   *
   * @return null when it passes (or does not apply to the session), else the failure message
   */
  public String verify(R response, Session session, Saves saves) {
    if (condition != null && !Boolean.TRUE.equals(condition.resolve(session))) {
      return null;
    }
    Optional<X> value;
    try {
      value = extractor.apply(response);
    } catch (RuntimeException e) {
      return name + " could not be extracted: " + e.getMessage();
    }
    List<Validation<X>> all = validations.isEmpty() ? List.of(Validation.exists()) : validations;
    for (Validation<X> v : all) {
      String failure;
      try {
        failure = v.verify(value, session);
      } catch (RuntimeException e) {
        failure = e.getMessage();
      }
      if (failure != null) {
        return name + "." + v.description() + ": " + failure;
      }
    }
    if (saveAs != null) {
      saves.put(saveAs, value.orElse(null));
    }
    return null;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(name);
    validations.forEach(v -> s.append('.').append(v.description()));
    if (saveAs != null) {
      s.append(".saveAs(").append(saveAs).append(')');
    }
    return s.toString();
  }
}
