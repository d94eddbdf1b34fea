package io.fusillade.gatling.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.logs.SearchResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What makes a read OK or KO, on either store: the reason of a KO is the first check that failed.
 */
class SearchChecksTest {
  private static SearchResult answer(
      int hits, long total, Map<String, List<SearchResult.Bucket>> aggs) {
    return new SearchResult(200, hits, total, aggs, null, 1);
  }

  private static SearchResult.Bucket bucket(String key, long count, Map<String, Double> values) {
    return new SearchResult.Bucket(key, count, values);
  }

  @Test
  void theStoresOwnErrorComesFirstAsSeqDbsCodeDoes() {
    SearchResult failed =
        new SearchResult(200, 0, -1, Map.of(), "ERROR_CODE_TOO_MANY_FRACTIONS_HIT", 1);
    assertThat(SearchChecks.NONE.check(failed)).isEqualTo("ERROR_CODE_TOO_MANY_FRACTIONS_HIT");
    assertThat(SearchChecks.NONE.check(answer(0, -1, Map.of()))).isNull();
  }

  @Test
  void hitsAndTotalsAreCheckedExactlyWhenAsked() {
    SearchChecks page = SearchChecks.NONE.withHits(100).withTotal(5000);
    assertThat(page.check(answer(100, 5000, Map.of()))).isNull();
    assertThat(page.check(answer(99, 5000, Map.of()))).isEqualTo("99 hits, expected 100");
    assertThat(page.check(answer(100, 4999, Map.of()))).isEqualTo("total 4999, expected 5000");
    assertThat(page.check(answer(100, -1, Map.of()))).isEqualTo("no total in the answer");
    assertThat(SearchChecks.NONE.withMinHits(1).check(answer(0, -1, Map.of())))
        .isEqualTo("fewer than 1 hits");
  }

  @Test
  void bucketsAreComparedWhateverEachStoreNamesItsAggregation() {
    Map<String, Double> counts = Map.of("200", 8.0, "500", 2.0);
    SearchChecks byCount = SearchChecks.NONE.withBuckets(SearchChecks.ONLY, true, counts);
    // OpenSearch: a named terms aggregation; seq-db: its first aggregation, "0"
    assertThat(
            byCount.check(
                answer(
                    0,
                    -1,
                    Map.of(
                        "by_status",
                        List.of(bucket("200", 8, Map.of()), bucket("500", 2, Map.of()))))))
        .isNull();
    assertThat(
            byCount.check(
                answer(
                    0,
                    -1,
                    Map.of("0", List.of(bucket("200", 8, Map.of()), bucket("500", 3, Map.of()))))))
        .isEqualTo("bucket 500 of 0: 3, expected 2");
    assertThat(byCount.check(answer(0, -1, Map.of("0", List.of(bucket("200", 8, Map.of()))))))
        .isEqualTo("no bucket 500 in 0");
    assertThat(
            byCount.check(
                answer(
                    0,
                    -1,
                    Map.of(
                        "0",
                        List.of(
                            bucket("200", 8, Map.of()),
                            bucket("500", 2, Map.of()),
                            bucket("999", 1, Map.of()))))))
        .isEqualTo("unexpected bucket 999 in 0");

    SearchChecks byMin =
        SearchChecks.NONE.withBuckets(SearchChecks.ONLY, false, Map.of("200", 12.0));
    // OpenSearch's min sub-aggregation, seq-db's value
    assertThat(
            byMin.check(
                answer(
                    0,
                    -1,
                    Map.of("by_status", List.of(bucket("200", 90, Map.of("min_size", 12.0)))))))
        .isNull();
    assertThat(
            byMin.check(
                answer(0, -1, Map.of("0", List.of(bucket("200", -1, Map.of("value", 13.0)))))))
        .isEqualTo("bucket 200 of 0: 13, expected 12");
  }
}
