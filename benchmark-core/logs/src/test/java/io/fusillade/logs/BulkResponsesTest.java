package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BulkResponsesTest {
  private static BulkResult parse(String json, int documents) {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    return BulkResponses.parse(b, b.length, documents, 1);
  }

  @Test
  void noErrorsMeansEveryDocumentStoredWithoutReadingTheItems() {
    // the items are cut off: the parser must stop at "errors":false
    BulkResult r = parse("{\"took\":3,\"errors\":false,\"items\":[{\"index\":{\"status\":201", 2);
    assertThat(r.ok()).isTrue();
    assertThat(r.failed()).isZero();
    assertThat(r.reason()).isNull();
  }

  @Test
  void failedItemsAreCountedByReasonAndRejectionsApart() {
    String json =
        "{\"took\":5,\"errors\":true,\"items\":["
            + "{\"index\":{\"_index\":\"x\",\"_id\":\"1\",\"status\":201,\"result\":\"created\"}},"
            + "{\"index\":{\"_index\":\"x\",\"status\":400,\"error\":{\"type\":"
            + "\"mapper_parsing_exception\",\"reason\":\"failed to parse field [status]\","
            + "\"caused_by\":{\"type\":\"number_format_exception\",\"reason\":\"x\"}}}},"
            + "{\"create\":{\"status\":429,\"error\":{\"type\":\"es_rejected_execution_exception\"}}},"
            + "{\"index\":{\"status\":400,\"error\":{\"type\":\"mapper_parsing_exception\"}}},"
            + "{\"index\":{\"status\":503}}"
            + "]}";
    BulkResult r = parse(json, 5);
    assertThat(r.ok()).isFalse();
    assertThat(r.failed()).isEqualTo(4);
    assertThat(r.rejected()).isEqualTo(1);
    assertThat(r.failuresByReason())
        .containsEntry("mapper_parsing_exception", 2)
        .containsEntry("es_rejected_execution_exception", 1)
        .containsEntry("status 503", 1)
        .hasSize(3);
    assertThat(r.reason())
        .isEqualTo(
            "bulk items failed: es_rejected_execution_exception, mapper_parsing_exception,"
                + " status 503");
  }

  @Test
  void missingItemsAndGarbageCountAsFailures() {
    BulkResult r = parse("{\"errors\":true,\"items\":[{\"index\":{\"status\":201}}]}", 3);
    assertThat(r.failed()).isEqualTo(2);
    assertThat(r.failuresByReason()).containsEntry("no item in response", 2);

    BulkResult garbage = parse("<html>oops</html>", 4);
    assertThat(garbage.failed()).isEqualTo(4);
    assertThat(garbage.reason()).isEqualTo("unreadable bulk response");
  }

  @Test
  void searchResponsesGiveHitsTotalsAndBuckets() {
    String json =
        "{\"hits\":{\"total\":{\"value\":12,\"relation\":\"eq\"},\"hits\":[{},{},{}]},"
            + "\"aggregations\":{\"by_status\":{\"buckets\":["
            + "{\"key\":200,\"doc_count\":10,\"min_size\":{\"value\":5.0}},"
            + "{\"key\":404,\"doc_count\":2,\"min_size\":{\"value\":null}}]}}}";
    SearchResult r = LogsResponses.parseSearch(json.getBytes(StandardCharsets.UTF_8), 1);
    assertThat(r.hits()).isEqualTo(3);
    assertThat(r.totalHits()).isEqualTo(12);
    assertThat(r.buckets("by_status")).hasSize(2);
    assertThat(r.buckets("by_status").get(0).key()).isEqualTo("200");
    assertThat(r.buckets("by_status").get(0).values()).containsEntry("min_size", 5.0);
    assertThat(r.buckets("by_status").get(1).values()).isEmpty();
  }

  @Test
  void optionsNeverShowSecretsAndRejectCredentialsInUrls() {
    LogsClientOptions o =
        LogsClientOptions.of("http://127.0.0.1:9200/").withBasicAuth("u", "s3cret");
    assertThat(o.urls()).containsExactly("http://127.0.0.1:9200");
    assertThat(o.toString()).doesNotContain("s3cret").contains("***");
    assertThat(LogsClientOptions.of("http://a").withApiKey("k3y").toString()).doesNotContain("k3y");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> LogsClientOptions.of("http://u:pw@host"))
        .hasMessageNotContaining("pw")
        .hasMessageContaining("***");
  }
}
