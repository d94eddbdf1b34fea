package io.fusillade.gatling.logs;

import static io.fusillade.gatling.logs.LogsDsl.bucketCounts;
import static io.fusillade.gatling.logs.LogsDsl.bucketValues;
import static io.fusillade.gatling.logs.LogsDsl.buckets;
import static io.fusillade.gatling.logs.LogsDsl.errorCode;
import static io.fusillade.gatling.logs.LogsDsl.hits;
import static io.fusillade.gatling.logs.LogsDsl.jmesPath;
import static io.fusillade.gatling.logs.LogsDsl.jsonPath;
import static io.fusillade.gatling.logs.LogsDsl.total;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.Saves;
import io.fusillade.logs.SearchResult;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The logs extractors on answers as the client parses them, on either store (the client's parsing
 * of each store's answers is tested against the stores in the logs module and in simulations).
 */
class LogsChecksTest {
  private static final Session SESSION = Session$.MODULE$.apply("test", 1L, null);

  private static SearchResult answer(
      int hits, long total, Map<String, List<SearchResult.Bucket>> aggs) {
    return new SearchResult(200, hits, total, aggs, null, 0);
  }

  private static SearchResult.Bucket bucket(String key, long count, Map<String, Double> values) {
    return new SearchResult.Bucket(key, count, values);
  }

  private static String verify(Check<SearchResult, ?> check, SearchResult r) {
    return check.verify(r, SESSION, new Saves());
  }

  @Test
  void hitsAndTotals() {
    SearchResult page = answer(100, 5000, Map.of());
    assertThat(verify(hits().is(100), page)).isNull();
    assertThat(verify(hits().is(100), answer(99, 5000, Map.of())))
        .isEqualTo("hits.is(100): found 99");
    assertThat(verify(total().is(5000), page)).isNull();
    assertThat(verify(total().is(5000), answer(100, -1, Map.of())))
        .isEqualTo("total.is(5000): found nothing");
    assertThat(verify(hits().gte(1), answer(0, -1, Map.of()))).isEqualTo("hits.gte(1): found 0");
  }

  @Test
  void bucketsAreComparedWhateverEachStoreNamesItsAggregation() {
    Map<String, Integer> counts = Map.of("200", 8, "404", 2);
    SearchResult es =
        answer(
            0,
            -1,
            Map.of("by_status", List.of(bucket("200", 8, Map.of()), bucket("404", 2, Map.of()))));
    SearchResult seqDb =
        answer(
            0,
            -1,
            Map.of(
                "0",
                List.of(
                    bucket("200", 8, Map.of()),
                    bucket("404", 2, Map.of()),
                    bucket("_not_exists", 1, Map.of()))));
    assertThat(verify(bucketCounts("").is(counts), es)).isNull();
    assertThat(verify(bucketCounts("").is(counts), seqDb)).isNull();
    assertThat(verify(buckets("by_status").gte(2), es)).isNull();
    assertThat(verify(buckets("0").is(2), seqDb)).isNull();
    assertThat(verify(bucketCounts("").is(Map.of("200", 8)), es))
        .startsWith("bucketCounts().is({200=8}): found {");
    SearchResult byMin =
        answer(0, -1, Map.of("by_status", List.of(bucket("200", 8, Map.of("m", 12.0)))));
    assertThat(verify(bucketValues("").is(Map.of("200", 12.0)), byMin)).isNull();
    assertThat(verify(bucketValues("nope").is(Map.of("200", 12.0)), byMin))
        .isEqualTo("bucketValues(nope).is({200=12.0}): found nothing");
  }

  @Test
  void jsonPathReadsTheAnswersBodyAndSavesWhatItFinds() throws Exception {
    var body =
        new ObjectMapper()
            .readTree(
                "{\"hits\":{\"total\":{\"value\":2},\"hits\":[{\"_id\":\"a1\",\"_source\":{\"status\":500,\"ok\":false}}]}}");
    SearchResult r = new SearchResult(200, 1, 2, Map.of(), null, 0, body);
    assertThat(verify(jsonPath("$.hits.hits[0]._source.status").is(500), r)).isNull();
    assertThat(verify(jsonPath("$.hits.hits[0]._source.ok").is(false), r)).isNull();
    assertThat(verify(jsonPath("$.hits.hits[1]._id"), r))
        .isEqualTo("jsonPath($.hits.hits[1]._id).exists: found nothing");
    Saves saves = new Saves();
    assertThat(jsonPath("$.hits.hits[0]._id").saveAs("firstId").verify(r, SESSION, saves)).isNull();
    assertThat(saves.applyTo(SESSION).attributes().get("firstId").get()).isEqualTo("a1");
    assertThatThrownBy(() -> jsonPath("$..[")).hasMessageStartingWith("jsonPath(\"$..[\"): ");
  }

  @Test
  void jmesPathReadsTheAnswersBodyWithFunctionsAndProjections() throws Exception {
    var body =
        new ObjectMapper()
            .readTree(
                "{\"hits\":{\"hits\":[{\"_id\":\"a1\",\"_source\":{\"status\":500}},"
                    + "{\"_id\":\"b2\",\"_source\":{\"status\":200}}]}}");
    SearchResult r = new SearchResult(200, 2, 2, Map.of(), null, 0, body);
    assertThat(verify(jmesPath("hits.hits[0]._source.status").is(500), r)).isNull();
    assertThat(verify(jmesPath("length(hits.hits)").is(2), r)).isNull();
    assertThat(verify(jmesPath("hits.hits[?_source.status == `200`]._id | [0]").is("b2"), r))
        .isNull();
    assertThat(verify(jmesPath("hits.hits[*]._id").is("[\"a1\",\"b2\"]"), r)).isNull();
    assertThat(verify(jmesPath("hits.hits[5]._id"), r))
        .isEqualTo("jmesPath(hits.hits[5]._id).exists: found nothing");
    Saves saves = new Saves();
    assertThat(jmesPath("hits.hits[1]._id").saveAs("second").verify(r, SESSION, saves)).isNull();
    assertThat(saves.applyTo(SESSION).attributes().get("second").get()).isEqualTo("b2");
    assertThatThrownBy(() -> jmesPath("hits.[")).hasMessageStartingWith("jmesPath(\"hits.[\"): ");
  }

  @Test
  void theErrorCodeIsFoundOnlyWhenTheStoreAnsweredWithOne() {
    SearchResult failed =
        new SearchResult(200, 0, -1, Map.of(), "ERROR_CODE_TOO_MANY_FRACTIONS_HIT", 0);
    assertThat(verify(errorCode().is("ERROR_CODE_TOO_MANY_FRACTIONS_HIT"), failed)).isNull();
    assertThat(verify(errorCode().notExists(), answer(0, -1, Map.of()))).isNull();
    assertThat(errorCode().needs()).containsExactly(LogsChecks.ERROR);
  }
}
