package io.fusillade.gatling.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard in {@code docker/grafana/} queries only metrics the endpoint serves: a
 * renamed metric must not leave an empty panel.
 */
class GrafanaDashboardTest {
  private static final Path DASHBOARD = Path.of("../../docker/grafana/fusillade-live.json");
  private static final Pattern METRIC = Pattern.compile("\\bfusillade_[a-z_]+");
  private static final Pattern TYPE = Pattern.compile("(?m)^# TYPE (\\S+) (\\S+)$");

  @TempDir Path base;

  @Test
  void everyQueriedMetricIsServed() throws Exception {
    Set<String> served = new TreeSet<>();
    try (RunRecorder run =
            RunRecorder.open(
                RunOptions.of("dashboard")
                    .withBaseDirectory(base)
                    .withFlushInterval(Duration.ofHours(1)));
        LiveMetrics metrics = LiveMetrics.start(run, 0, Map.of(), Duration.ZERO)) {
      String text =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://localhost:" + metrics.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      Matcher type = TYPE.matcher(text);
      while (type.find()) {
        String name = type.group(1);
        switch (type.group(2)) {
          case "counter" -> served.add(name + "_total");
          case "histogram" -> {
            served.add(name + "_bucket");
            served.add(name + "_count");
            served.add(name + "_sum");
          }
          default -> served.add(name);
        }
      }
    }
    JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
    Set<String> queried = new TreeSet<>();
    for (JsonNode expr : dashboard.findValues("expr")) {
      Matcher m = METRIC.matcher(expr.asText());
      while (m.find()) {
        queried.add(m.group());
      }
    }
    queried.add(
        dashboard.at("/templating/list/0/query/query").asText().replaceAll(".*\\((\\w+),.*", "$1"));
    assertThat(queried).hasSizeGreaterThan(8);
    assertThat(served).containsAll(queried);
  }
}
