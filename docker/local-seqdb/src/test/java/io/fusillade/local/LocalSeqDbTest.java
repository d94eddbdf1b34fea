package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real seq-db processes from the binary built by {@code ../shared/seq-db/build.sh}: one node that
 * takes bulks and searches, is killed, started again with its data, frozen and delayed; an ingestor
 * with two stores, one of them killed; a server whose owner died, stopped by the reaper; and
 * nothing left behind. With {@code CI=true} a missing binary fails (as {@code .ci/run} builds it),
 * elsewhere it skips.
 */
@Tag("slow")
class LocalSeqDbTest {
  /** A search answer's total (a string or a number; left out when 0). */
  private static final java.util.regex.Pattern TOTAL =
      java.util.regex.Pattern.compile("\"total\":\"?(\\d+)");

  private static final String MAPPING =
      "mapping-list:\n  - name: status\n    type: keyword\n  - name: message\n    type: text\n";

  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeAll
  static void needsTheBinary() {
    if (SeqDbBinary.find(null, System.getenv()).isEmpty()) {
      // CI builds it (.ci/run): there a missing binary is a failure, not a skip
      assertThat(System.getenv("CI")).as(SeqDbBinary.HOW_TO_BUILD).isNull();
      assumeTrue(false, SeqDbBinary.HOW_TO_BUILD);
    }
  }

  @Test
  void oneNodeTakesBulksAndSearchesSurvivesAKillAndAPauseAndLeavesNothing() throws Exception {
    Path directory;
    List<Long> pids;
    try (LocalSeqDb seqDb = LocalSeqDb.builder().mapping(MAPPING).delayable(0).start()) {
      directory = seqDb.directoryForTests();
      pids = seqDb.pids();
      assertThat(seqDb.nodes()).isEqualTo(1);
      assertThat(seqDb.baseUrl()).startsWith("http://127.0.0.1:");
      assertThat(get(seqDb.baseUrl() + "/")).contains("seq-db");
      assertThat(new String(java.util.Base64.getDecoder().decode(mapping(seqDb))))
          .contains("\"status\":\"keyword\"", "\"message\":\"text\"");

      String bulk = post(seqDb.baseUrl() + "/_bulk", docs(0, 300));
      assertThat(bulk).contains("\"errors\":false");
      assertThat(total(seqDb, "status:500", 100)).isEqualTo(100);

      seqDb.stopNode(0);
      assertThatThrownBy(() -> get(seqDb.baseUrl() + "/"))
          .hasCauseInstanceOf(ConnectException.class);
      seqDb.startNode(0);
      // what was acknowledged before the kill is still there
      assertThat(total(seqDb, "status:500", 100)).isEqualTo(100);

      seqDb.pauseNode(0);
      CompletableFuture<HttpResponse<String>> frozen;
      try {
        frozen =
            http.sendAsync(
                HttpRequest.newBuilder(URI.create(seqDb.baseUrl() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        Thread.sleep(700);
        assertThat(frozen).as("a request to a frozen seq-db").isNotDone();
      } finally {
        seqDb.resumeNode(0);
      }
      assertThat(frozen.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);

      seqDb.delayNode(0, Duration.ofMillis(300));
      long start = System.nanoTime();
      assertThat(total(seqDb, "status:200", 100)).isEqualTo(100);
      assertThat((System.nanoTime() - start) / 1_000_000).isBetween(300L, 3_000L);
      seqDb.delayNode(0, Duration.ZERO);
    }
    assertThat(Files.exists(directory)).isFalse();
    assertThat(pids).allSatisfy(pid -> assertThat(ProcessHandle.of(pid)).isEmpty());
  }

  @Test
  void anIngestorSpreadsBulksOverItsStoresAndSaysWhenOneIsGone() throws Exception {
    Path directory;
    try (LocalSeqDb seqDb = LocalSeqDb.builder().mapping(MAPPING).stores(2).start()) {
      directory = seqDb.directoryForTests();
      assertThat(seqDb.nodes()).isEqualTo(3);
      assertThat(seqDb.stores()).isEqualTo(2);
      for (int i = 0; i < 4; i++) {
        assertThat(post(seqDb.baseUrl() + "/_bulk", docs(i * 300, 300)))
            .contains("\"errors\":false");
      }
      assertThat(total(seqDb, "status:500", 400)).isEqualTo(400);

      seqDb.stopNode(2);
      // a search with a store gone answers 200, with the error in its body
      String partial = search(seqDb, "status:500");
      assertThat(partial).contains("ERROR_CODE_PARTIAL_RESPONSE");
      seqDb.startNode(2);
      assertThat(total(seqDb, "status:500", 400)).isEqualTo(400);
    }
    assertThat(Files.exists(directory)).isFalse();
  }

  @Test
  void aServerWhoseOwnerDiedIsStoppedByTheReaper() throws Exception {
    LocalSeqDb seqDb = LocalSeqDb.builder().start();
    Path directory = seqDb.directoryForTests();
    long pid = seqDb.pids().get(0);
    // as if the JVM that started it had been killed: a pid that is no longer alive
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Files.writeString(directory.resolve(StaleServers.OWNER), Long.toString(gone.pid()));

    List<Path> removed = LocalServers.stopOrphans(Duration.ofSeconds(5));

    assertThat(removed).contains(directory);
    assertThat(Files.exists(directory)).isFalse();
    assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    seqDb.close(); // nothing left to stop: does not throw
  }

  private static String docs(int first, int count) {
    StringBuilder b = new StringBuilder();
    String[] statuses = {"200", "404", "500"};
    for (int i = first; i < first + count; i++) {
      b.append("{\"index\":{}}\n{\"status\":")
          .append(statuses[i % 3])
          .append(",\"message\":\"request ")
          .append(i)
          .append(" done\"}\n");
    }
    return b.toString();
  }

  private String search(LocalSeqDb seqDb, String query) throws Exception {
    return post(
        seqDb.baseUrl() + "/search",
        "{\"query\":{\"query\":\""
            + query
            + "\",\"from\":\"2000-01-01T00:00:00Z\",\"to\":\"2099-01-01T00:00:00Z\"},"
            + "\"size\":1,\"with_total\":true}");
  }

  /**
   * The query's total once it is {@code expected}, or the last one seen after 10 s: an acknowledged
   * bulk becomes searchable moments later, not at once (CI, 2026-12-03: a search just after a bulk
   * of 300 found none on a busy machine). A total of 0 is left out of the answer.
   */
  private long total(LocalSeqDb seqDb, String query, long expected) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (true) {
      String body = search(seqDb, query);
      assertThat(body).contains("ERROR_CODE_NO");
      java.util.regex.Matcher m = TOTAL.matcher(body);
      long total = m.find() ? Long.parseLong(m.group(1)) : 0;
      if (total == expected || System.nanoTime() > deadline) {
        return total;
      }
      Thread.sleep(100);
    }
  }

  private String mapping(LocalSeqDb seqDb) throws Exception {
    String body = get(seqDb.baseUrl() + "/mappings");
    return body.replaceAll(".*\"data\":\"([^\"]*)\".*", "$1");
  }

  private String get(String url) throws Exception {
    return send(HttpRequest.newBuilder(URI.create(url)).build());
  }

  private String post(String url, String body) throws Exception {
    return send(
        HttpRequest.newBuilder(URI.create(url))
            .header("Grpc-Metadata-use-seq-ql", "true")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build());
  }

  private String send(HttpRequest request) throws Exception {
    // a new client each time: a pooled connection to a node killed meanwhile is gone
    HttpResponse<String> response =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }
}
