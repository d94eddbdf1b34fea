package io.fusillade.gatling.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.fusillade.FusilladeException;
import io.fusillade.health.InjectorLagMonitor;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The InfluxDB push against a tiny real HTTP receiver (the JDK's server, answering 204 as InfluxDB
 * does): one POST per second of the run, in the line protocol, with the token when given.
 */
class InfluxPushTest {
  private static final long MS = 1_000_000L;
  // measurement,tags fields timestamp: the line protocol's shape, with escaped spaces in tags
  private static final Pattern LINE =
      Pattern.compile("^([a-z_]+)((?:,[a-z_]+=(?:\\\\.|[^\\\\ ,=])+)+) (\\S+) (\\d{19})$");

  @TempDir Path base;
  private HttpServer receiver;
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private final List<String> queries = new CopyOnWriteArrayList<>();
  private final List<String> tokens = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startReceiver() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/",
        exchange -> {
          bodies.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          queries.add(exchange.getRequestURI().getRawQuery());
          String auth = exchange.getRequestHeaders().getFirst("Authorization");
          tokens.add(auth == null ? "" : auth);
          exchange.sendResponseHeaders(204, -1);
          exchange.close();
        });
    receiver.start();
  }

  @AfterEach
  void stopReceiver() {
    receiver.stop(0);
  }

  private RunRecorder open() {
    return RunRecorder.open(
        RunOptions.of("influx").withBaseDirectory(base).withFlushInterval(Duration.ofHours(1)));
  }

  @Test
  void eachSecondIsOnePostInTheLineProtocol() {
    String url =
        "http://127.0.0.1:" + receiver.getAddress().getPort() + "/api/v2/write?org=o&bucket=b";
    RunRecorder run = open();
    InfluxPush.start(run, url, "secret-token");
    long now = System.nanoTime();
    run.request("by id").sent();
    run.request("by id").sent();
    run.request("by id").ok(now - 4 * MS, now);
    run.request("by id").ko(now - 2 * MS, now, "SQLState 40001, serialization");
    run.metric(InjectorLagMonitor.METRIC).recordMicros(1500);
    run.gauge("topic.orders.lag", () -> 12);
    run.counter("rows").add(5);
    run.flush();
    run.request("by id").sent();
    run.close(); // the last second, then the push drains

    assertThat(bodies).hasSize(2);
    assertThat(queries).containsOnly("org=o&bucket=b");
    assertThat(tokens).containsOnly("Token secret-token");
    String runTag = ",run=" + InfluxPush.tag(run.runId());
    String first = bodies.get(0);
    for (String line : first.split("\n")) {
      assertThat(line).matches(LINE);
    }
    String timestamp = timestamp(first);
    assertThat(first)
        .contains(
            "fusillade_requests" + runTag + ",request=by\\ id sent=2i,ok=1i,ko=1i,p50_ms=4.0",
            "fusillade_errors"
                + runTag
                + ",class=server,reason=SQLState\\ 40001\\,\\ serialization,request=by\\ id"
                + " count=1i "
                + timestamp,
            "fusillade_metrics" + runTag + ",metric=injector.lag count=1i,p99_ms=1.5",
            "fusillade_gauges" + runTag + ",name=topic.orders.lag value=12.0 " + timestamp,
            "fusillade_counters" + runTag + ",name=rows delta=5i " + timestamp,
            "fusillade_run" + runTag + " elapsed_s=");
    // The second holds only that second: one more request sent.
    assertThat(bodies.get(1))
        .contains("fusillade_requests" + runTag + ",request=by\\ id sent=1i,ok=0i,ko=0i ");
  }

  @Test
  void anAbsentReceiverNeverStopsTheRun() {
    int port = receiver.getAddress().getPort();
    receiver.stop(0);
    RunRecorder run = open();
    InfluxPush push = InfluxPush.start(run, "http://127.0.0.1:" + port + "/write?db=f", null);
    long now = System.nanoTime();
    run.request("q").ok(now - MS, now);
    run.flush();
    run.close();
    assertThat(push.pushed()).isZero();
    assertThat(run.status().jsonName()).isEqualTo("completed");
  }

  @Test
  void aUrlThatIsNotHttpIsOneClearError() {
    try (RunRecorder run = open()) {
      run.request("q").ok(0, 1);
      assertThatThrownBy(() -> InfluxPush.start(run, "localhost:8086", null))
          .isInstanceOf(FusilladeException.class)
          .hasMessage(
              "fusillade.influx.url: \"localhost:8086\" is not an http(s) URL (example:"
                  + " http://localhost:8086/write?db=fusillade)");
    }
  }

  private static String timestamp(String body) {
    Matcher m = Pattern.compile(" (\\d{19})\n").matcher(body);
    assertThat(m.find()).isTrue();
    return m.group(1);
  }
}
