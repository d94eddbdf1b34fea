package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code injected} list: erroneous requests mixed into the queries. */
class InjectedSectionTest {
  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("w.yml", yaml, name -> null);
  }

  private static List<String> problems(String yaml) {
    return parse(yaml).problems().stream().map(Problem::toString).toList();
  }

  @Test
  void eachKindHasItsShareOfTheArrivals() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                injected:
                  - {kind: syntax error, share: 1%}
                  - {kind: constraint_violation, share: 0.005}
                  - {kind: Statement Timeout, share: 0.2%}
                """)
            .orThrow();
    assertThat(w.injected())
        .containsExactly(
            new InjectedFault("syntax error", 0.01),
            new InjectedFault("constraint violation", 0.005),
            new InjectedFault("statement timeout", 0.002));
  }

  @Test
  void aWrongKindOrShareIsNamedByItsLineAndKey() {
    String q = "queries:\n  - sql: select 1\ninjected:\n";
    assertThat(problems(q + "  - {kind: syntax eror, share: 1%}\n"))
        .singleElement()
        .asString()
        .startsWith("w.yml:4:12 injected[0].kind: unknown kind \"syntax eror\"")
        .contains("did you mean 'syntax error'");
    assertThat(problems(q + "  - {kind: syntax error, share: 60%}\n"))
        .singleElement()
        .asString()
        .contains("injected[0].share: the share of injected requests is above 0% and at most 50%");
    assertThat(problems(q + "  - {kind: syntax error, share: lots}\n"))
        .singleElement()
        .asString()
        .contains("expected a share such as 1% or 0.01, got lots");
    assertThat(problems(q + "  - {kind: syntax error}\n"))
        .singleElement()
        .asString()
        .contains("give share (a share of the arrivals) or rate (requests per second)");
    assertThat(
            problems(
                "topics:\n  - {name: t, rate: 10}\ninjected:\n  - {kind: syntax error, share:"
                    + " 1%}\n"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .contains("injected[0].kind: kind \"syntax error\" does not go with topics")
                    .contains("one of oversized message, missing topic, wrong setting"));
    assertThat(
            problems(
                "logs:\n  docs: 10000\n  bulk_size: 1000\ninjected:\n  - {kind: syntax error, share: 1%}\n"))
        .singleElement()
        .asString()
        .contains(
            "kind \"syntax error\" does not go with logs: one of mapping violation,"
                + " malformed bulk");
  }

  @Test
  void aKindMayHaveARateOfItsOwnInsteadOfAShare() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                injected:
                  - {kind: syntax error, rate: 2.5, from: 10s, for: 5s}
                """)
            .orThrow();
    InjectedFault f = w.injected().get(0);
    assertThat(f.hasRate()).isTrue();
    assertThat(f.rate()).isEqualTo(2.5);
    assertThat(f.share()).isZero();
    assertThat(f.from()).isEqualTo(Duration.ofSeconds(10));
    String q = "queries:\n  - sql: select 1\ninjected:\n";
    assertThat(problems(q + "  - {kind: syntax error, share: 1%, rate: 2}\n"))
        .singleElement()
        .asString()
        .contains("injected[0].rate: give share or rate, not both");
    assertThat(
            problems(
                "topics:\n  - {name: t, rate: 10}\ninjected:\n"
                    + "  - {kind: missing topic, rate: 1}\n"))
        .singleElement()
        .asString()
        .contains("injected: a topics workload's injected kinds take a share of the writes");
    assertThat(problems(q + "  - {kind: syntax error, rate: 0}\n"))
        .singleElement()
        .asString()
        .contains("injected[0].rate: rate must be above 0 per second");
  }

  @Test
  void aKindMaySendOnlyForAWhile() {
    Workload w =
        parse(
                """
                logs:
                  docs: 10000
                  bulk_size: 1000
                injected:
                  - {kind: mapping violation, share: 5%, from: 20s, for: 10s}
                  - {kind: malformed bulk, share: 1%, from: 0s}
                """)
            .orThrow();
    InjectedFault windowed = w.injected().get(0);
    assertThat(windowed)
        .isEqualTo(
            new InjectedFault(
                "mapping violation", 0.05, Duration.ofSeconds(20), Duration.ofSeconds(10)));
    assertThat(windowed.always()).isFalse();
    assertThat(windowed.activeAt(Duration.ofMillis(19_999).toNanos())).isFalse();
    assertThat(windowed.activeAt(Duration.ofSeconds(20).toNanos())).isTrue();
    assertThat(windowed.activeAt(Duration.ofMillis(29_999).toNanos())).isTrue();
    assertThat(windowed.activeAt(Duration.ofSeconds(30).toNanos())).isFalse();
    assertThat(w.injected().get(1).always()).isTrue();
    assertThat(
            problems(
                "queries:\n  - sql: select 1\ninjected:\n"
                    + "  - {kind: syntax error, share: 1%, for: 0s, from: soon}\n"))
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).contains("injected[0].for: for must be > 0"))
        .anySatisfy(
            p -> assertThat(p).contains("injected[0].from: expected a duration such as 30s"));
  }
}
