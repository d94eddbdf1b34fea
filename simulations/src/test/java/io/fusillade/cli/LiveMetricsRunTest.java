package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fusillade.local.LocalPostgres;
import io.prometheus.metrics.expositionformats.generated.Metrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --metrics-port} serves the run live: scraped over HTTP while a real run
 * (embedded PostgreSQL, two stages, one query that always fails) is under way, the counters grow,
 * the step moves on, errors carry their reason and class, and at the end every counter and every
 * histogram count equals the run record's ({@code counters.jsonl}); the InfluxDB push, to a small
 * real HTTP receiver, adds up to the same totals.
 *
 * <p>The scrapes are parsed by the Prometheus Java client's own classes for the Prometheus
 * exposition format (its protobuf encoding: the client ships no parser of the text format); one
 * scrape checks that the text format is served too, with the same totals.
 */
@Tag("slow")
class LiveMetricsRunTest {
  private static final String PROTOBUF =
      "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited";

  private static LocalPostgres postgres;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.start();
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  @Test
  void aScrapeDuringTheRunGrowsAndEndsAtTheRecordsTotals() throws Exception {
    Path file = dir.resolve("live.yml");
    Files.writeString(
        file,
        """
        config_name: RATE
        tables_schema:
          - name: live_cars
            row_count: 20
            columns:
              - {name: id, type: integer, range: [1, 20], unique: true}
            primary_keys: [id]
        queries:
          - name: by id
            sql: select id from live_cars where id = $1::integer
            params:
              - {type: integer, range: [1, 20]}
          - name: divide
            sql: select 1 / ($1::integer - $1::integer)
            params:
              - {type: integer, range: [1, 20]}
        load:
          mode: rate
          stages:
            - {hold: 30, for: 4s}
            - {hold: 60, for: 4s}
        checks: []
        """);
    int port = freePort();
    Path out = dir.resolve("out");
    // A small real InfluxDB stand-in: keeps what is pushed, answers 204 as InfluxDB does.
    List<String> pushed = new CopyOnWriteArrayList<>();
    HttpServer influx = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    influx.createContext(
        "/write",
        exchange -> {
          pushed.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    influx.start();
    CompletableFuture<CliRun> run =
        CompletableFuture.supplyAsync(
            () ->
                CliRun.of(
                    "run",
                    file.toString(),
                    "--url",
                    postgres.jdbcUrl(),
                    "--setup",
                    "true",
                    "--teardown",
                    "--output",
                    out.toString(),
                    "--metrics-port",
                    Integer.toString(port),
                    "--metrics-hold",
                    "20s",
                    "--influx-url",
                    "http://127.0.0.1:" + influx.getAddress().getPort() + "/write?db=fusillade"));

    // While it runs: scrape once a second.
    List<Double> okSeen = new ArrayList<>();
    Set<Double> stepsSeen = new HashSet<>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Optional<Path> record = Optional.empty();
    while (System.nanoTime() < deadline && !run.isDone()) {
      record = runDirectory(out);
      if (record.isPresent() && !status(record.get()).equals("running")) {
        break;
      }
      Optional<List<Metrics.MetricFamily>> scrape = scrape(port);
      if (scrape.isPresent()) {
        okSeen.add(sum(scrape.get(), "fusillade_requests_total", Map.of("status", "ok")));
        family(scrape.get(), "fusillade_injection_step")
            .ifPresent(f -> f.getMetricList().forEach(m -> stepsSeen.add(m.getGauge().getValue())));
      }
      Thread.sleep(1000);
    }
    assertThat(record).as("the run record, and the run: %s", run).isPresent();
    assertThat(status(record.get())).isEqualTo("completed");

    // The run ended; the endpoint is held up for a last scrape.
    List<Metrics.MetricFamily> last = scrape(port).orElseThrow();
    String names =
        last.stream().map(Metrics.MetricFamily::getName).collect(Collectors.joining(", "));
    assertThat(names)
        .as("the metric families")
        .contains("fusillade_requests_total", "fusillade_request_latency_seconds");
    // The text format is served as well, with the same totals.
    HttpResponse<String> text =
        http.send(
            HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(text.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
    assertThat(text.body())
        .contains(
            "fusillade_requests_sent_total{request=\"by id\"} "
                + (double) recordTotals(record.get()).get("by id")[0]);
    CliRun result = run.get(60, TimeUnit.SECONDS);
    influx.stop(0);
    assertThat(result.exitCode()).as(result.out() + result.err()).isZero();

    // It grew while the run ran, and the step moved from the first to the second.
    assertThat(okSeen).hasSizeGreaterThanOrEqualTo(4);
    assertThat(okSeen.stream().filter(v -> v > 0).count()).isGreaterThanOrEqualTo(3);
    for (int i = 1; i < okSeen.size(); i++) {
      assertThat(okSeen.get(i)).isGreaterThanOrEqualTo(okSeen.get(i - 1));
    }
    assertThat(okSeen.get(okSeen.size() - 1)).isGreaterThan(okSeen.get(0));
    assertThat(stepsSeen).contains(1.0, 2.0);

    // At the end: the record's totals, request by request.
    Map<String, long[]> totals = recordTotals(record.get());
    assertThat(totals).containsKeys("by id", "divide");
    for (Map.Entry<String, long[]> e : totals.entrySet()) {
      Map<String, String> request = Map.of("request", e.getKey());
      long[] t = e.getValue();
      assertThat(sum(last, "fusillade_requests_sent_total", request)).isEqualTo(t[0]);
      assertThat(sum(last, "fusillade_requests_total", with(request, "status", "ok")))
          .isEqualTo(t[1]);
      assertThat(sum(last, "fusillade_requests_total", with(request, "status", "ko")))
          .isEqualTo(t[2]);
      assertThat(histogramCount(last, with(request, "status", "ok"))).isEqualTo(t[1]);
      assertThat(histogramCount(last, with(request, "status", "ko"))).isEqualTo(t[2]);
      assertThat(sum(last, "fusillade_errors_total", request)).isEqualTo(t[3]);
    }
    assertThat(totals.get("by id")[1]).isPositive();
    // The InfluxDB push: one POST a second, whose per-second counts add up to the same totals.
    assertThat(pushed.size()).isGreaterThanOrEqualTo(8);
    for (Map.Entry<String, long[]> e : totals.entrySet()) {
      Pattern line =
          Pattern.compile(
              "(?m)^fusillade_requests,run=\\S+,request="
                  + Pattern.quote(e.getKey().replace(" ", "\\ "))
                  + " sent=(\\d+)i,ok=(\\d+)i,ko=(\\d+)i");
      long[] summed = new long[3];
      for (String body : pushed) {
        Matcher m = line.matcher(body);
        while (m.find()) {
          for (int i = 0; i < 3; i++) {
            summed[i] += Long.parseLong(m.group(i + 1));
          }
        }
      }
      assertThat(summed)
          .as(e.getKey())
          .containsExactly(e.getValue()[0], e.getValue()[1], e.getValue()[2]);
    }
    assertThat(totals.get("divide")[2]).isPositive();
    // Division by zero is the server's error, and its reason says so.
    Metrics.MetricFamily errors = family(last, "fusillade_errors_total").orElseThrow();
    assertThat(errors.getMetricList())
        .allSatisfy(
            m -> {
              assertThat(label(m, "request")).isEqualTo("divide");
              assertThat(label(m, "class")).isEqualTo("server");
              assertThat(label(m, "reason")).contains("22012");
            });
    assertThat(family(last, "fusillade_run_info").orElseThrow().getMetric(0).getGauge().getValue())
        .isZero();
    assertThat(family(last, "fusillade_metric_seconds")).isPresent();
  }

  private static Map<String, String> with(Map<String, String> labels, String name, String value) {
    Map<String, String> more = new HashMap<>(labels);
    more.put(name, value);
    return more;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** One scrape in the protobuf format, parsed; empty while the endpoint is not up. */
  private Optional<List<Metrics.MetricFamily>> scrape(int port) throws InterruptedException {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics"))
            .header("Accept", PROTOBUF)
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      HttpResponse<InputStream> response =
          http.send(request, HttpResponse.BodyHandlers.ofInputStream());
      List<Metrics.MetricFamily> families = new ArrayList<>();
      try (InputStream body = response.body()) {
        Metrics.MetricFamily family;
        while ((family = Metrics.MetricFamily.parseDelimitedFrom(body)) != null) {
          families.add(family);
        }
      }
      return Optional.of(families);
    } catch (IOException notUpYet) {
      return Optional.empty();
    }
  }

  private static Optional<Metrics.MetricFamily> family(
      List<Metrics.MetricFamily> scrape, String name) {
    return scrape.stream().filter(f -> f.getName().equals(name)).findFirst();
  }

  private static String label(Metrics.Metric metric, String name) {
    return metric.getLabelList().stream()
        .filter(l -> l.getName().equals(name))
        .map(Metrics.LabelPair::getValue)
        .findFirst()
        .orElse(null);
  }

  private static boolean matches(Metrics.Metric metric, Map<String, String> labels) {
    return labels.entrySet().stream().allMatch(e -> e.getValue().equals(label(metric, e.getKey())));
  }

  /** The sum of a counter's samples whose labels include {@code labels}. */
  private static double sum(
      List<Metrics.MetricFamily> scrape, String name, Map<String, String> labels) {
    return family(scrape, name).stream()
        .flatMap(f -> f.getMetricList().stream())
        .filter(m -> matches(m, labels))
        .mapToDouble(m -> m.getCounter().getValue())
        .sum();
  }

  private static long histogramCount(
      List<Metrics.MetricFamily> scrape, Map<String, String> labels) {
    return family(scrape, "fusillade_request_latency_seconds").stream()
        .flatMap(f -> f.getMetricList().stream())
        .filter(m -> matches(m, labels))
        .mapToLong(m -> m.getHistogram().getSampleCount())
        .sum();
  }

  private static Optional<Path> runDirectory(Path out) throws IOException {
    if (!Files.isDirectory(out)) {
      return Optional.empty();
    }
    try (Stream<Path> runs = Files.list(out)) {
      return runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).findFirst();
    }
  }

  private static String status(Path run) throws IOException {
    return new ObjectMapper().readTree(run.resolve("run.json").toFile()).path("status").asText();
  }

  /** Per request name: sent, ok, ko, errors, summed over counters.jsonl. */
  private static Map<String, long[]> recordTotals(Path run) throws IOException {
    ObjectMapper json = new ObjectMapper();
    Map<String, long[]> totals = new HashMap<>();
    for (String line : Files.readAllLines(run.resolve("counters.jsonl"))) {
      JsonNode requests = json.readTree(line).path("requests");
      requests
          .fields()
          .forEachRemaining(
              e -> {
                long[] t = totals.computeIfAbsent(e.getKey(), k -> new long[4]);
                t[0] += e.getValue().path("sent").asLong();
                t[1] += e.getValue().path("ok").asLong();
                t[2] += e.getValue().path("ko").asLong();
                e.getValue().path("errors").forEach(n -> t[3] += n.asLong());
              });
    }
    return totals;
  }
}
