package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Starts a real node, talks to it over HTTP, and checks that closing removes its data. */
@Tag("slow")
class LocalOpenSearchTest {

  @Test
  void startsOnLoopbackIndexesAndSearchesAndCleansUp() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    Path directory;
    // delayable: its clients go through a delay proxy, which passes everything at once until told
    try (LocalOpenSearch node = LocalOpenSearch.builder().delayable(0).start()) {
      directory = node.directoryForTests();
      assertThat(node.baseUrl()).startsWith("http://127.0.0.1:");
      HttpResponse<String> root =
          http.send(
              HttpRequest.newBuilder(URI.create(node.baseUrl() + "/")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(root.statusCode()).isEqualTo(200);
      assertThat(root.body()).contains("\"number\" : \"2.19.1\"");

      HttpResponse<String> indexed =
          http.send(
              HttpRequest.newBuilder(URI.create(node.baseUrl() + "/t/_doc/1?refresh=true"))
                  .header("Content-Type", "application/json")
                  .PUT(HttpRequest.BodyPublishers.ofString("{\"status\":200}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(indexed.statusCode()).isEqualTo(201);
      HttpResponse<String> count =
          http.send(
              HttpRequest.newBuilder(URI.create(node.baseUrl() + "/t/_count")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(count.body()).contains("\"count\":1");
      assertThat(directory).exists();

      node.delayNode(0, java.time.Duration.ofMillis(400));
      long start = System.nanoTime();
      HttpResponse<String> delayed =
          http.send(
              HttpRequest.newBuilder(URI.create(node.baseUrl() + "/t/_count")).build(),
              HttpResponse.BodyHandlers.ofString());
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertThat(delayed.body()).contains("\"count\":1");
      assertThat(millis).as("a delayed answer, ms").isBetween(400L, 2_000L);
      node.delayNode(0, java.time.Duration.ZERO);

      // stopped, the node's port (its proxy's) refuses connections as its own would
      node.stopNode(0);
      assertThatThrownBy(
              () ->
                  http.send(
                      HttpRequest.newBuilder(URI.create(node.baseUrl() + "/")).build(),
                      HttpResponse.BodyHandlers.ofString()))
          .isInstanceOf(java.net.ConnectException.class);
      node.startNode(0);
      // a new client: the old one's pooled connection went with the stop
      assertThat(
              HttpClient.newHttpClient()
                  .send(
                      HttpRequest.newBuilder(URI.create(node.baseUrl() + "/t/_count")).build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body())
          .contains("\"count\":1");
    }
    assertThat(Files.exists(directory)).isFalse();
  }
}
