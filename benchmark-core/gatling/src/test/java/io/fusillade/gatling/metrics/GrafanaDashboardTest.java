package io.fusillade.gatling.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

  private static final Map<String, Object> PROFILE =
      Map.of(
          "injection",
          List.of(Map.of("scenario", "s", "steps", List.of(Map.of("rate", 1, "seconds", 3600)))));

  @TempDir Path base;

  @Test
  void everyQueriedMetricIsServed() throws Exception {
    Set<String> served = new TreeSet<>();
    try (RunRecorder run =
            RunRecorder.open(
                RunOptions.of("dashboard")
                    .withBaseDirectory(base)
                    .withFlushInterval(Duration.ofHours(1)));
        LiveMetrics metrics = LiveMetrics.start(run, 0, PROFILE, Duration.ZERO)) {
      // A family without a sample is not served: record one of each kind.
      long now = System.nanoTime();
      run.request("q").sent();
      run.request("q").ok(now - 1_000_000, now);
      run.request("q").ko(now - 1_000_000, now, "HTTP 503");
      run.metric(InjectorLagMonitor.METRIC).recordMicros(100);
      run.gauge("topic.orders.lag", () -> 1);
      run.gauge("system.cpu.busy", () -> 50);
      run.counter("rows").add(1);
      run.flush();
      String text =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://localhost:" + metrics.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      // The text format names a counter's family with its _total, a histogram's without.
      Matcher type = TYPE.matcher(text);
      while (type.find()) {
        String name = type.group(1);
        switch (type.group(2)) {
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
