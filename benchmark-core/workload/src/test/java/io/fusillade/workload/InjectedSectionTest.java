package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

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
        .contains("share");
    assertThat(
            problems(
                "topics:\n  - {name: t, rate: 10}\ninjected:\n  - {kind: syntax error, share:"
                    + " 1%}\n"))
        .anySatisfy(p -> assertThat(p).contains("injected requests go among SQL queries"));
  }
}
