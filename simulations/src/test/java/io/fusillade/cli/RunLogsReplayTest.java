package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.logs.SharedOpenSearch;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log-store team's replay (issue 20, item 4): pre-transformed NDJSON files on disk, one of them
 * gzipped, ingested by {@code fusillade run} into OpenSearch as they are: every line once, its
 * fields intact.
 */
@Tag("slow")
class RunLogsReplayTest {
  @TempDir Path dir;

  @Test
  void ndjsonFilesFromAGlobAreIngestedLineByLine() throws Exception {
    Path data = Files.createDirectory(dir.resolve("data"));
    StringBuilder first = new StringBuilder();
    StringBuilder second = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      String line =
          "{\"@timestamp\":\"2026-11-25T10:00:00Z\",\"replay_id\":"
              + i
              + ",\"message\":\"line "
              + i
              + "\"}\n";
      (i < 150 ? first : second).append(line);
    }
    Files.writeString(data.resolve("part-1.ndjson"), first);
    try (OutputStream out =
        new GZIPOutputStream(Files.newOutputStream(data.resolve("part-2.ndjson.gz")))) {
      out.write(second.toString().getBytes(StandardCharsets.UTF_8));
    }
    Path file = dir.resolve("replay.yml");
    Files.writeString(
        file,
        """
        logs:
          index: replayed
          mapping: none
          bulk_size: 50
          docs: 300
          concurrency: 1
        # The replay is the subject, not the injector's health (the default checks judge it too,
        # and a machine busy with other tests may saturate it).
        checks: ['errors < 1%']
        """);
    String url = SharedOpenSearch.url();
    CliRun run =
        CliRun.of(
            "run",
            file.toString(),
            "--url",
            url,
            "--files",
            data.resolve("part-*").toString(),
            "--output",
            dir.resolve("out").toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    HttpClient http = HttpClient.newHttpClient();
    http.send(
        HttpRequest.newBuilder(URI.create(url + "/replayed/_refresh"))
            .POST(HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.discarding());
    assertThat(count(http, url, "")).isEqualTo(300);
    assertThat(count(http, url, "?q=replay_id:299")).as("from the gzipped file").isEqualTo(1);
    assertThat(count(http, url, "?q=replay_id:0")).isEqualTo(1);
  }

  private static long count(HttpClient http, String base, String query) throws Exception {
    String body =
        http.send(
                HttpRequest.newBuilder(URI.create(base + "/replayed/_count" + query)).build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    return Long.parseLong(body.replaceAll(".*\"count\"\\s*:\\s*(\\d+).*", "$1"));
  }
}
