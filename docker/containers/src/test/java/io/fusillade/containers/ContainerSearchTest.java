package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Three OpenSearch nodes in containers, started once for the class (the suite's one three-node
 * start in containers): they form one cluster, each answers, a document written through one is
 * found through another, and a paused node answers nothing until resumed. Skipped without a Docker
 * engine, failed without one where CI=true.
 */
@Tag("slow")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerSearchTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static ContainerSearch search;

  @BeforeAll
  static void startThreeNodes() {
    Docker.assumeAvailable();
    search = ContainerSearch.openSearch().nodes(3).heap("384m").start();
  }

  @AfterAll
  static void stopThemAndLeaveNothing() {
    if (search != null) {
      search.close();
      assertThat(Leftovers.ofThisSession()).isEmpty();
    }
  }

  @Test
  @Order(1)
  void threeNodesFormOneClusterAndEachAnswers() throws Exception {
    if (Docker.hasImage(ContainerSearch.LOCAL_OPENSEARCH_IMAGE)
        || "true".equals(System.getenv("CI"))) {
      assertThat(search.image()).isEqualTo(ContainerSearch.LOCAL_OPENSEARCH_IMAGE);
    }
    assertThat(search.baseUrls()).hasSize(3).doesNotHaveDuplicates();
    for (String node : search.baseUrls()) {
      HttpResponse<String> root = get(node + "/");
      assertThat(root.statusCode()).as(node).isEqualTo(200);
      assertThat(root.body()).contains("\"distribution\" : \"opensearch\"");
      assertThat(get(node + "/_cluster/health?wait_for_nodes=3&timeout=30s").body())
          .as("%s's cluster", node)
          .contains("\"number_of_nodes\":3");
    }
  }

  @Test
  @Order(2)
  void aDocumentWrittenThroughOneNodeIsFoundThroughAnother() throws Exception {
    String first = search.baseUrls().get(0);
    HttpResponse<String> created =
        HTTP.send(
            HttpRequest.newBuilder(
                    URI.create(first + "/marks/_doc/1?refresh=true&wait_for_active_shards=1"))
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"mark\":\"seven\"}"))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String found = get(search.baseUrls().get(2) + "/marks/_search?q=mark:seven").body();
    assertThat(found).contains("\"_id\":\"1\"");
  }

  @Test
  @Order(3)
  void aPausedNodeAnswersNothingUntilResumed() throws Exception {
    String third = search.baseUrls().get(2);
    search.pause(3);
    try {
      assertThatThrownBy(
              () ->
                  HTTP.send(
                      HttpRequest.newBuilder(URI.create(third + "/"))
                          .timeout(Duration.ofSeconds(2))
                          .build(),
                      HttpResponse.BodyHandlers.ofString()))
          .as("a paused node does not answer")
          .isInstanceOf(HttpTimeoutException.class);
    } finally {
      search.resume(3);
    }
    assertThat(get(third + "/").statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(40)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
