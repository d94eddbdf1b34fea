package io.fusillade.gatling.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint in this JVM, fed by a recorder flushed by hand. */
class LiveMetricsTest {
  private static final long MS = 1_000_000L;

  @TempDir Path base;

  private RunRecorder open() {
    return RunRecorder.open(
        RunOptions.of("io.example.Live")
            .withBaseDirectory(base)
            // flushed by hand below: the scheduled flush must not split the intervals
            .withFlushInterval(Duration.ofHours(1)));
  }

  private static String scrape(int port) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return response.body();
  }

  @Test
  void showsWhatTheRecorderFlushedAndNothingBefore() throws Exception {
    Map<String, Object> parameters =
        Map.of(
            "injection",
            List.of(
                Map.of(
                    "scenario",
                    "lookups",
                    "steps",
                    List.of(
                        Map.of("rate", 10, "seconds", 60), Map.of("rate", 20, "seconds", 60)))));
    int port;
    try (RunRecorder run = open();
        LiveMetrics metrics = LiveMetrics.start(run, 0, parameters, Duration.ofMillis(500))) {
      port = metrics.port();
      long now = System.nanoTime();
      run.request("q").sent();
      run.request("q").sent();
      run.request("q").sent();
      run.request("q").ok(now - 3 * MS, now); // 3 ms
      run.request("q").ok(now - 700 * MS, now); // 0.7 s
      run.request("q").ko(now - 1 * MS, now, "connection refused");
      run.metric(InjectorLagMonitor.METRIC).recordMicros(2_000);
      run.gauge("topic.orders.lag", () -> 42);
      run.gauge("lag.payments", () -> 7);
      run.gauge("cpu", () -> 12.5);

      // Recorded but not flushed: not shown yet (the endpoint shows the record, second by second).
      assertThat(scrape(metrics.port())).doesNotContain("fusillade_requests_total{");

      run.flush();
      String text = scrape(metrics.port());
      assertThat(text)
          .contains("fusillade_requests_sent_total{request=\"q\"} 3.0")
          .contains("fusillade_requests_total{request=\"q\",status=\"ok\"} 2.0")
          .contains("fusillade_requests_total{request=\"q\",status=\"ko\"} 1.0")
          .contains(
              "fusillade_errors_total{class=\"network\",reason=\"connection refused\","
                  + "request=\"q\"} 1.0")
          // 3 ms is in the 5 ms bucket, not the 2.5 ms one; 0.7 s in the 1 s one
          .contains(
              "fusillade_request_latency_seconds_bucket{request=\"q\",status=\"ok\",le=\"0.0025\"}"
                  + " 0")
          .contains(
              "fusillade_request_latency_seconds_bucket{request=\"q\",status=\"ok\",le=\"0.005\"}"
                  + " 1")
          .contains(
              "fusillade_request_latency_seconds_bucket{request=\"q\",status=\"ok\",le=\"1.0\"} 2")
          .contains("fusillade_request_latency_seconds_count{request=\"q\",status=\"ok\"} 2")
          .contains("fusillade_request_latency_seconds_count{request=\"q\",status=\"ko\"} 1")
          .contains("fusillade_consumer_lag_records{topic=\"orders\"} 42.0")
          .contains("fusillade_consumer_lag_records{topic=\"payments\"} 7.0")
          .contains("fusillade_gauge{name=\"cpu\"} 12.5")
          .contains(
              "fusillade_metric_seconds_count{metric=\"" + InjectorLagMonitor.METRIC + "\"} 1")
          .contains("fusillade_injection_step{scenario=\"lookups\"} 1.0")
          .contains("fusillade_injection_target_rate{scenario=\"lookups\"} 10.0")
          .containsPattern(
              "fusillade_run_info\\{run_id=\"[^\"]+\",simulation=\"\",status=\"running\"} 1.0");
      assertThat(text).containsPattern("fusillade_injector_lag_seconds 0.002\\d*");
      // OpenMetrics, which Prometheus asks for first, is served too.
      HttpResponse<String> openMetrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://localhost:" + metrics.port() + "/metrics"))
                      .header("Accept", "application/openmetrics-text; version=1.0.0")
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(openMetrics.headers().firstValue("Content-Type").orElse(""))
          .startsWith("application/openmetrics-text");
      assertThat(openMetrics.body())
          .contains("fusillade_requests_total{request=\"q\",status=\"ok\"} 2.0")
          .contains("fusillade_run_info{")
          .endsWith("# EOF\n");

      // Totals add up over flushes.
      run.request("q").ok(now - 3 * MS, now);
      run.flush();
      assertThat(scrape(metrics.port()))
          .contains("fusillade_requests_total{request=\"q\",status=\"ok\"} 3.0")
          .contains("fusillade_request_latency_seconds_count{request=\"q\",status=\"ok\"} 3");

      run.close(RunStatus.ABORTED, "test");
      assertThat(scrape(metrics.port()))
          .containsPattern("fusillade_run_info\\{[^}]*status=\"aborted\"} 0.0")
          .doesNotContain("fusillade_injection_step{");
    }
    // The hold is over: the endpoint is gone.
    assertThatThrownBy(() -> scrape(port)).isInstanceOf(ConnectException.class);
  }

  @Test
  void theEndOfTheRunStopsTheEndpointAfterTheHold() throws Exception {
    RunRecorder run = open();
    LiveMetrics metrics = LiveMetrics.start(run, 0, Map.of(), Duration.ofMillis(200));
    run.request("q").ok(0, 1);
    run.close();
    assertThat(scrape(metrics.port())).contains("status=\"completed\"");
    Thread.sleep(600);
    // Nobody closed it: the run's end did, so a JVM is not kept alive by its server thread.
    assertThatThrownBy(() -> scrape(metrics.port())).isInstanceOf(ConnectException.class);
  }

  @Test
  void aPortInUseIsOneClearError() throws Exception {
    try (RunRecorder run = open();
        LiveMetrics first = LiveMetrics.start(run, 0, Map.of(), Duration.ZERO)) {
      assertThatThrownBy(() -> LiveMetrics.start(run, first.port(), Map.of(), Duration.ZERO))
          .isInstanceOf(FusilladeException.class)
          .hasMessageStartingWith(
              "the metrics endpoint cannot listen on port "
                  + first.port()
                  + " (fusillade.metrics.port)");
    }
  }
}
