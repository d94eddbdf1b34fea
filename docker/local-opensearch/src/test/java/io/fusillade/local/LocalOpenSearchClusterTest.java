package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three real nodes in one cluster, each in a JVM of its own: an index with one replica per shard is
 * green, a frozen node (SIGSTOP) answers nothing until it is let go, the index keeps every document
 * when a node is killed, and the node comes back on its own port. ({@code RunLogsClusterTest} runs
 * three nodes in one JVM.)
 */
@Tag("slow")
class LocalOpenSearchClusterTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void threeNodesHoldAReplicatedIndexThroughAPauseAndTheLossOfOne() throws Exception {
    Path directory;
    try (LocalOpenSearch cluster =
        LocalOpenSearch.builder().nodes(3).separateProcess(true).heap("384m").start()) {
      directory = cluster.directoryForTests();
      assertThat(cluster.nodes()).isEqualTo(3);
      assertThat(cluster.baseUrls()).hasSize(3).doesNotHaveDuplicates();
      String first = cluster.baseUrls().get(0);
      String third = cluster.baseUrls().get(2);
      assertThat(get(first + "/_cat/nodes?h=name"))
          .contains("fusillade-1", "fusillade-2", "fusillade-3");

      put(first + "/logs", "{\"settings\":{\"number_of_shards\":3,\"number_of_replicas\":1}}");
      StringBuilder bulk = new StringBuilder();
      for (int i = 0; i < 300; i++) {
        bulk.append("{\"index\":{}}\n{\"n\":").append(i).append("}\n");
      }
      post(first + "/logs/_bulk?refresh=true", bulk.toString());
      assertThat(get(first + "/_cluster/health/logs?wait_for_status=green&timeout=60s"))
          .contains("\"status\":\"green\"");

      String second = cluster.baseUrls().get(1);
      cluster.pauseNode(1);
      CompletableFuture<HttpResponse<String>> frozen;
      try {
        frozen =
            http.sendAsync(
                HttpRequest.newBuilder(URI.create(second + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1500);
        assertThat(frozen).as("a request to a frozen node").isNotDone();
      } finally {
        cluster.resumeNode(1);
      }
      assertThat(frozen.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

      cluster.stopNode(2);
      assertThatThrownBy(() -> get(third + "/")).hasCauseInstanceOf(ConnectException.class);
      // the shards of the stopped node have their replicas on the others: nothing is lost
      assertThat(get(first + "/logs/_count")).contains("\"count\":300");

      cluster.startNode(2);
      assertThat(get(third + "/logs/_count")).contains("\"count\":300");
      assertThat(get(first + "/_cluster/health/logs?wait_for_status=green&timeout=60s"))
          .contains("\"status\":\"green\"")
          .contains("\"number_of_nodes\":3");
    }
    assertThat(Files.exists(directory)).isFalse();
  }

  private String get(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).build());
  }

  private void put(String url, String json) throws Exception {
    send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(json))
            .build());
  }

  private void post(String url, String ndjson) throws Exception {
    send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/x-ndjson")
            .POST(HttpRequest.BodyPublishers.ofString(ndjson))
            .build());
  }

  private String send(HttpRequest request) throws Exception {
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 299);
    return response.body();
  }
}
