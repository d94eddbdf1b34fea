package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ExpressionTest {

  @Test
  void anElStringResolvesToTheAttributeWithItsOwnType() {
    Expression<Object> id = Expression.el("#{id}");
    assertThat(id.isConstant()).isFalse();
    assertThat(id.resolve(TestSessions.with("id", 42))).isEqualTo(42);
    assertThat(id).hasToString("#{id}");
  }

  @Test
  void aStringWithoutElIsAConstant() {
    Expression<Object> text = Expression.el("plain");
    assertThat(text.isConstant()).isTrue();
    assertThat(text.constantValue()).isEqualTo("plain");
    assertThat(text.resolve(TestSessions.empty())).isEqualTo("plain");
  }

  @Test
  void aMissingAttributeFailsWithGatlingsMessage() {
    assertThatThrownBy(() -> Expression.el("#{nope}").resolve(TestSessions.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
  }

  @Test
  void textRendersTheElAsAString() {
    Expression<String> name = Expression.text("#{kind} by id");
    assertThat(name.resolve(TestSessions.with("kind", 7))).isEqualTo("7 by id");
    assertThat(Expression.text("by id").isConstant()).isTrue();
  }

  @Test
  void aFunctionIsCalledForEachSession() {
    Expression<Integer> next = Expression.of(session -> session.getInt("n") + 1);
    assertThat(next.isConstant()).isFalse();
    assertThat(next.resolve(TestSessions.with("n", 1))).isEqualTo(2);
    assertThat(next).hasToString("(function)");
    assertThatThrownBy(next::constantValue).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aMappedConstantIsComputedOnce() {
    AtomicInteger calls = new AtomicInteger();
    Expression<Integer> length =
        Expression.constant("abc")
            .map(
                s -> {
                  calls.incrementAndGet();
                  return s.length();
                });
    assertThat(length.resolve(TestSessions.empty())).isEqualTo(3);
    assertThat(length.resolve(TestSessions.empty())).isEqualTo(3);
    assertThat(calls).hasValue(1);
    assertThat(length.isConstant()).isTrue();
  }

  @Test
  void aMappedElIsMappedPerSession() {
    Expression<String> upper = Expression.el("#{name}").map(v -> String.valueOf(v).toUpperCase());
    assertThat(upper.resolve(TestSessions.with("name", "ann"))).isEqualTo("ANN");
  }

  @Test
  void describedAsChangesOnlyTheText() {
    Expression<Object> id = Expression.el("#{id}").describedAs("the id");
    assertThat(id).hasToString("the id");
    assertThat(id.resolve(TestSessions.with("id", 3))).isEqualTo(3);
  }

  @Test
  void requestNamesNeedText() {
    assertThatThrownBy(() -> RequestNames.of("SQL", " "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a SQL request needs a name");
    assertThat(RequestNames.of("SQL", session -> "x")).hasToString("sql request not built");
  }
}
