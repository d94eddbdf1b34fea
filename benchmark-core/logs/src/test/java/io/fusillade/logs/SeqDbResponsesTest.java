package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers of a real seq-db (bb7660b), as its HTTP gateway wrote them, read into results. */
class SeqDbResponsesTest {
  private static SearchResult parse(String body, SeqDbQuery query) {
    return SeqDbResponses.parse(body.getBytes(StandardCharsets.UTF_8), query, 42);
  }

  @Test
  void aSearchGivesItsDocumentsAndTotal() {
    SearchResult r =
        parse(
            "{\"total\":450,\"docs\":[{\"id\":\"c7d6-5900\",\"data\":{\"status\":400},"
                + "\"time\":\"2026-11-26T23:26:46.983Z\"},{\"id\":\"c7d6-5901\",\"data\":"
                + "{\"status\":500},\"time\":\"2026-11-26T23:26:46.983Z\"}],"
                + "\"error\":{\"code\":\"ERROR_CODE_NO\",\"message\":\"\"}}",
            SeqDbQuery.of("status:in(500, 400, 403)").withSize(2).withTotal(true));
    assertThat(r.ok()).isTrue();
    assertThat(r.hits()).isEqualTo(2);
    assertThat(r.totalHits()).isEqualTo(450);
    assertThat(r.endNanos()).isEqualTo(42);
  }

  @Test
  void anAnswerCarryingAnErrorCodeFailsWithThatCodeAsItsReasonThoughItsStatusIs200() {
    SearchResult tooMany =
        parse(
            "{\"error\":{\"code\":\"ERROR_CODE_TOO_MANY_FRACTIONS_HIT\","
                + "\"message\":\"store forbids request: too many fractions hit\"}}",
            SeqDbQuery.of("status:500"));
    assertThat(tooMany.ok()).isFalse();
    assertThat(tooMany.httpStatus()).isEqualTo(200);
    assertThat(tooMany.error()).isEqualTo("ERROR_CODE_TOO_MANY_FRACTIONS_HIT");

    SearchResult partial =
        parse(
            "{\"partial_response\":true,\"total\":300,\"docs\":[{\"id\":\"a\"}],"
                + "\"error\":{\"code\":\"ERROR_CODE_PARTIAL_RESPONSE\",\"message\":\"partial"
                + " response: some shards returned error\"}}",
            SeqDbQuery.of("status:500"));
    assertThat(partial.ok()).as("documents of some stores only are not a success").isFalse();
    assertThat(partial.error()).isEqualTo("ERROR_CODE_PARTIAL_RESPONSE");
  }

  @Test
  void countBucketsCountDocumentsAndOtherBucketsHoldTheirValue() {
    SeqDbQuery query =
        SeqDbQuery.of("*")
            .withSize(0)
            .withAggregations(
                List.of(
                    SeqDbAggregation.count().groupBy("status"),
                    SeqDbAggregation.min("size").groupBy("status"),
                    SeqDbAggregation.quantile("size", 0.5, 0.9)));
    SearchResult r =
        parse(
            "{\"aggs\":[{\"buckets\":[{\"key\":\"200\",\"value\":413},{\"key\":\"500\","
                + "\"value\":160}]},{\"buckets\":[{\"key\":\"200\",\"value\":0},{\"key\":\"500\","
                + "\"value\":1}]},{\"buckets\":[{\"quantiles\":[500,899],\"value\":500}]}],"
                + "\"error\":{\"code\":\"ERROR_CODE_NO\",\"message\":\"\"}}",
            query);
    assertThat(r.buckets("0"))
        .extracting(SearchResult.Bucket::key, SearchResult.Bucket::docCount)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("200", 413L),
            org.assertj.core.groups.Tuple.tuple("500", 160L));
    assertThat(r.buckets("1").get(1).values()).containsEntry("value", 1.0);
    assertThat(r.buckets("2").get(0).values())
        .containsEntry("q0", 500.0)
        .containsEntry("q1", 899.0);
  }

  @Test
  void aHistogramIsBucketsOfTimeWithTheirCounts() {
    SearchResult r =
        parse(
            "{\"hist\":{\"buckets\":[{\"doc_count\":1000,\"ts\":{\"seconds\":1795735606}}]},"
                + "\"error\":{\"code\":\"ERROR_CODE_NO\",\"message\":\"\"}}",
            SeqDbQuery.of("*").withSize(0).withHistogram("1s"));
    assertThat(r.buckets(SeqDbQuery.HISTOGRAM))
        .singleElement()
        .satisfies(
            b -> {
              assertThat(b.key()).isEqualTo("1795735606");
              assertThat(b.docCount()).isEqualTo(1000);
            });
  }

  @Test
  void theGatewaysErrorsAreNamedByTheirGrpcCode() {
    assertThat(
            LogsResponses.httpError(
                400,
                "{\"code\":3,\"message\":\"can't parse query\"}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("HTTP 400 InvalidArgument");
  }
}
