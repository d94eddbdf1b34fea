package io.fusillade.reports.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fusillade.FusilladeException;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.SyntheticRecord;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A period report posted to a real HTTP receiver ({@code com.sun.net.httpserver}, on loopback) that
 * keeps what it received, as a Slack or Mattermost incoming webhook would: the message, and what
 * happens when the chat refuses, is gone or does not answer. The history: synthetic runs of the
 * previous day and one run recorded by the real {@link RunRecorder} in this period.
 */
@Tag("slow") // starts an HTTP server; about 1 s
class ChatWebhookTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The webhook's secret, in its path as Slack's and Mattermost's are. */
  private static final String TOKEN = "T0001/B0002/xoxS3cr3tT0k3n";

  @TempDir static Path history;

  static HttpServer chat;
  static final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  static final CountDownLatch released = new CountDownLatch(1);
  static PeriodReport report;
  static String realRun;

  record Received(String path, String contentType, String authorization, String body) {}

  @BeforeAll
  static void start() throws Exception {
    chat = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    chat.createContext(
        "/hooks/",
        exchange -> {
          String body =
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
          received.add(
              new Received(
                  exchange.getRequestURI().getPath(),
                  exchange.getRequestHeaders().getFirst("Content-Type"),
                  exchange.getRequestHeaders().getFirst("Authorization"),
                  body));
          int status = exchange.getRequestURI().getPath().endsWith("/gone") ? 404 : 200;
          byte[] answer = (status == 200 ? "ok" : "no_service").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status, answer.length);
          exchange.getResponseBody().write(answer);
          exchange.close();
        });
    chat.createContext(
        "/slow/",
        exchange -> {
          try {
            released.await(5, TimeUnit.SECONDS); // never answers before the client gives up
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.close();
        });
    chat.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(2));
    chat.start();

    Instant now = Instant.now();
    for (int i = 0; i < 3; i++) { // yesterday, 2 ms
      SyntheticRecord.run()
          .simulation("io.example.Webhook")
          .start(now.minus(Duration.ofHours(30 - 2L * i)).toEpochMilli())
          .seed(i)
          .median(2_000)
          .write(history, "synthetic-" + i);
    }
    // One real record, through the recorder a simulation uses, in this period: 5 ms.
    try (RunRecorder run =
        RunRecorder.open(RunOptions.of("io.example.Webhook").withBaseDirectory(history))) {
      RequestChannel q = run.request("q");
      for (int i = 0; i < 500; i++) {
        long t = 1_000_000_000L + i * 1_000_000L;
        q.sent();
        q.ok(t, t + 5_000_000L);
      }
      realRun = run.directory().getFileName().toString();
    }
    report =
        PeriodReport.of(
            RunMetrics.load(List.of(history)),
            Period.parse("24h"),
            now.plusSeconds(60),
            history.toString(),
            Comparison.Settings.DEFAULTS,
            ChangePoints.Settings.DEFAULTS);
  }

  @AfterAll
  static void stop() {
    released.countDown();
    chat.stop(0);
  }

  private static String url(String path) {
    return "http://127.0.0.1:" + chat.getAddress().getPort() + path;
  }

  @Test
  void theChatReceivesTheReportAsSlackJson() throws Exception {
    received.clear();
    ChatWebhook webhook = ChatWebhook.of(url("/hooks/" + TOKEN), Duration.ofSeconds(5));
    Optional<String> failure = webhook.post(ChatMessage.plain().body(report));
    assertThat(failure).isEmpty();
    Received r = received.poll(5, TimeUnit.SECONDS);
    assertThat(r).isNotNull();
    assertThat(r.path()).isEqualTo("/hooks/" + TOKEN);
    assertThat(r.contentType()).startsWith("application/json");
    JsonNode message = JSON.readTree(r.body());
    assertThat(message.fieldNames()).toIterable().containsExactly("text");
    String text = message.path("text").asText();
    assertThat(text)
        .startsWith("# Fusillade period report: 24h to ")
        .contains("## io.example.Webhook")
        .contains("Runs: 1 run this period, 3 runs the previous one.")
        // 1 run against 3: Welch's test cannot run, and the line says so
        .contains(
            "not tested: Welch's t-test needs 2 runs in each period (previous 3, this period 1)")
        .doesNotContain(TOKEN);
    assertThat(report.tests().get(0).current().runIds()).containsExactly(realRun);
    assertThat(webhook.toString()).isEqualTo("chat webhook at " + webhook.host());
    assertThat(webhook.toString()).doesNotContain("hooks").doesNotContain("S3cr3t");
  }

  @Test
  void aChatThatAnswersAnErrorIsAWarningNamingTheHostOnly() {
    ChatWebhook webhook = ChatWebhook.of(url("/hooks/" + TOKEN + "/gone"), Duration.ofSeconds(5));
    assertThat(webhook.post("{\"text\":\"x\"}"))
        .contains(
            "WARNING: the report was not posted to the chat webhook at 127.0.0.1:"
                + chat.getAddress().getPort()
                + ": it answered HTTP 404");
  }

  @Test
  void aChatThatIsGoneIsAWarning() throws IOException {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort(); // closed again: nothing listens there
    }
    ChatWebhook webhook =
        ChatWebhook.of("http://127.0.0.1:" + port + "/hooks/" + TOKEN, Duration.ofSeconds(2));
    assertThat(webhook.post("{\"text\":\"x\"}"))
        .hasValueSatisfying(
            w ->
                assertThat(w)
                    .isEqualTo(
                        "WARNING: the report was not posted to the chat webhook at 127.0.0.1:"
                            + port
                            + ": cannot connect (refused, or no route)")
                    .doesNotContain(TOKEN));
  }

  @Test
  void aChatThatDoesNotAnswerInTimeIsAWarning() {
    ChatWebhook webhook = ChatWebhook.of(url("/slow/" + TOKEN), Duration.ofMillis(400));
    long start = System.nanoTime();
    Optional<String> failure = webhook.post("{\"text\":\"x\"}");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(failure).hasValueSatisfying(w -> assertThat(w).endsWith(": no answer within 0.4 s"));
  }

  @Test
  void aUserAndPasswordBecomeBasicAuthenticationAndAreNeverShown() throws Exception {
    received.clear();
    String withPassword =
        "http://bot:pa55w0rd@127.0.0.1:" + chat.getAddress().getPort() + "/hooks/" + TOKEN;
    ChatWebhook webhook = ChatWebhook.of(withPassword, Duration.ofSeconds(5));
    assertThat(webhook.post("{\"text\":\"x\"}")).isEmpty();
    Received r = received.poll(5, TimeUnit.SECONDS);
    assertThat(r.authorization())
        .isEqualTo(
            "Basic "
                + java.util.Base64.getEncoder()
                    .encodeToString("bot:pa55w0rd".getBytes(StandardCharsets.UTF_8)));
    assertThat(webhook.host()).isEqualTo("127.0.0.1:" + chat.getAddress().getPort());
    ChatWebhook gone = ChatWebhook.of(withPassword + "/gone", Duration.ofSeconds(5));
    assertThat(gone.post("{}").orElseThrow()).doesNotContain("pa55w0rd").doesNotContain("bot");
  }

  @Test
  void aUrlThatIsNotHttpIsRefusedWithoutShowingIt() {
    for (String bad : List.of("ftp://host/hooks/" + TOKEN, "hooks.slack.com/" + TOKEN, "::")) {
      assertThatThrownBy(() -> ChatWebhook.of(bad, Duration.ofSeconds(1)))
          .isInstanceOf(FusilladeException.class)
          .hasMessageStartingWith("--notify: not an http:// or https:// URL with a host")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain(TOKEN));
    }
  }
}
