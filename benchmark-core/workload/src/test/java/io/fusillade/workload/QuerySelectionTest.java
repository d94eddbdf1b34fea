package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --queries}: a set of a workload's queries by tag, name or a name's first word. */
class QuerySelectionTest {
  private static final Workload WORKLOAD =
      WorkloadLoader.parse(
              "set.yml",
              """
              queries:
                - {name: Q1 pricing summary, tags: [lite, full], sql: select 1}
                - {name: Q2 minimum cost supplier, tags: [full], sql: select 2}
                - {name: Q3 shipping priority, tags: [lite, full], sql: select 3}
                - {name: slow one, tags: [full], sql: select 4}
              """,
              Map.<String, String>of()::get)
          .orThrow();

  @Test
  void noSelectionKeepsEveryQuery() {
    assertThat(QuerySelection.parse(null).apply(WORKLOAD)).isSameAs(WORKLOAD);
    assertThat(QuerySelection.parse(" ").all()).isTrue();
  }

  @Test
  void aTagSelectsItsQueriesInTheFilesOrder() {
    assertThat(names("lite")).containsExactly("Q1 pricing summary", "Q3 shipping priority");
    assertThat(names("FULL")).hasSize(4);
  }

  @Test
  void namesAndTheirFirstWordsAndTagsMixAndKeepTheFilesOrder() {
    assertThat(names("slow one, Q2, q1"))
        .containsExactly("Q1 pricing summary", "Q2 minimum cost supplier", "slow one");
    assertThat(names("lite,Q2"))
        .containsExactly("Q1 pricing summary", "Q2 minimum cost supplier", "Q3 shipping priority");
  }

  @Test
  void theSelectionLeavesTheOtherSectionsAsTheyWere() {
    Workload selected = QuerySelection.parse("Q2").apply(WORKLOAD);
    assertThat(selected.file()).isEqualTo(WORKLOAD.file());
    assertThat(selected.tables()).isEqualTo(WORKLOAD.tables());
    assertThat(selected.queries()).containsExactly(WORKLOAD.queries().get(1));
  }

  @Test
  void anItemNamingNothingIsRefusedWithWhatThereIs() {
    assertThatThrownBy(() -> QuerySelection.parse("lite,lit").apply(WORKLOAD))
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            "--queries: no tag or query 'lit' in set.yml; did you mean 'lite'? (tags: lite,"
                + " full; queries: Q1, Q2, Q3, slow)");
  }

  @Test
  void theSelectionIsCarriedAsTheOptionWasWritten() {
    assertThat(QuerySelection.parse("lite, Q2 ,").toString()).isEqualTo("lite,Q2");
  }

  private static java.util.List<String> names(String selection) {
    return QuerySelection.parse(selection).apply(WORKLOAD).queries().stream()
        .map(Query::name)
        .toList();
  }
}
