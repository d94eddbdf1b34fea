package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.logs.SharedOpenSearch;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A logs workload run by three injectors ({@code --injectors 3 --injector-index I --start-at T})
 * against one OpenSearch: the first makes the index, each sends every third bulk of the single
 * run's documents, and together they store each document once.
 */
@Tag("slow")
class RunLogsInjectorsTest {
  @TempDir Path dir;

  @Test
  void threeInjectorsStoreTheSingleRunsDocumentsOnceEach() throws Exception {
    Path file = dir.resolve("logs.yml");
    Files.writeString(
        file,
        """
        seed: 3
        logs:
          index: shared
          mapping: web-logs
          bulk_size: 1000
          docs: 20000
          concurrency: 2
        """);
    String url = SharedOpenSearch.url();
    Instant start = Instant.now().plusSeconds(25); // after the three JVMs have started
    List<CompletableFuture<CliRun>> runs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String[] args = {
        "run",
        file.toString(),
        "--url",
        url,
        "--injectors",
        "3",
        "--injector-index",
        Integer.toString(i),
        "--start-at",
        start.toString(),
        "--output",
        dir.resolve("out" + i).toString()
      };
      runs.add(CompletableFuture.supplyAsync(() -> CliRun.of(args)));
    }
    for (int i = 0; i < 3; i++) {
      CliRun result = runs.get(i).get(240, TimeUnit.SECONDS);
      assertThat(result.exitCode()).as(result.out() + result.err()).isZero();
      RunRecord data = RunRecordReader.read(SummaryCommand.resolve(dir.resolve("out" + i)));
      System.out.printf(
          "injector %d: ready %s ms before --start-at%n",
          i, data.manifest().parameters().get("startMarginMs"));
      // 20 bulks: 0, 3, ..., 18; 1, 4, ..., 19; 2, 5, ..., 17
      long bulks = i < 2 ? 7 : 6;
      assertThat(data.manifest().parameters())
          .containsEntry("injectors", 3)
          .containsEntry("docs", (int) (bulks * 1000))
          .containsEntry("clockReference", url);
      // one machine, one clock: the node's and the injector's agree within a few ms
      double offset = ((Number) data.manifest().parameters().get("clockOffsetMs")).doubleValue();
      double uncertainty =
          ((Number) data.manifest().parameters().get("clockUncertaintyMs")).doubleValue();
      assertThat(Math.abs(offset)).as("clock offset, ms").isLessThan(25.0 + uncertainty);
      assertThat(uncertainty).isGreaterThanOrEqualTo(0.5);
      assertThat(data.requests().get("bulk").okCount()).isEqualTo(bulks);
    }
    HttpClient http = HttpClient.newHttpClient();
    http.send(
        HttpRequest.newBuilder(URI.create(url + "/shared/_refresh"))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.discarding());
    // documents i are at @timestamp start + i / 100: each second of log time holds 100 of them
    // exactly when every document was stored once
    String query =
        "{\"size\":0,\"track_total_hits\":true,\"aggs\":{\"s\":{\"date_histogram\":{"
            + "\"field\":\"@timestamp\","
            + "\"fixed_interval\":\"1s\",\"min_doc_count\":0}}}}";
    JsonNode answer =
        new ObjectMapper()
            .readTree(
                http.send(
                        HttpRequest.newBuilder(URI.create(url + "/shared/_search"))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(query))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body());
    assertThat(answer.path("hits").path("total").path("value").asLong()).isEqualTo(20_000);
    JsonNode buckets = answer.path("aggregations").path("s").path("buckets");
    assertThat(buckets.size()).isEqualTo(200);
    for (JsonNode bucket : buckets) {
      assertThat(bucket.path("doc_count").asLong()).as(bucket.toString()).isEqualTo(100);
    }
  }
}
