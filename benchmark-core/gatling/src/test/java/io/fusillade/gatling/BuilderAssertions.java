package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** The immutability every Fusillade builder promises, checked method by method. */
public final class BuilderAssertions {
  private BuilderAssertions() {}

  /**
   * Each of {@code methods} applied to {@code base} returns another builder whose value differs,
   * and leaves {@code base}'s value as it was.
   *
   * @param value what a builder wraps (a record: compared with equals)
   */
  public static <B, V> void eachMethodReturnsAChangedCopy(
      B base, Function<B, V> value, Map<String, UnaryOperator<B>> methods) {
    V before = value.apply(base);
    methods.forEach(
        (name, method) -> {
          B changed = method.apply(base);
          assertThat(changed).as(name + " returns a new builder").isNotSameAs(base);
          assertThat(value.apply(base)).as(name + " leaves the original").isEqualTo(before);
          assertThat(value.apply(changed)).as(name + " changes the copy").isNotEqualTo(before);
        });
  }
}
