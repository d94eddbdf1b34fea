package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade trend HISTORY --period 24h --notify URL} from the command line: the report
 * printed and written, posted to a real HTTP receiver on loopback, a chat that is gone a warning
 * (exit code unchanged), the webhook's secret never printed or written, and every mistake one line
 * with exit code 2. The history: runs written by the real {@link RunRecorder}, all in this period.
 */
@Tag("slow") // starts an HTTP server; about 1 s
class TrendPeriodCommandTest {
  private static final String TOKEN = "T0001/B0002/xoxS3cr3tT0k3n";

  @TempDir static Path base;

  static Path history;
  static HttpServer chat;
  static final BlockingQueue<String> received = new LinkedBlockingQueue<>();
  static String until;

  @BeforeAll
  static void start() throws Exception {
    history = base.resolve("history");
    for (int i = 0; i < 2; i++) {
      try (RunRecorder run =
          RunRecorder.open(
              RunOptions.of("io.example.Scheduled")
                  .withBaseDirectory(history)
                  .withParameters(Map.of("workload", "workloads/nightly.yml")))) {
        RequestChannel q = run.request("q");
        for (int r = 0; r < 500; r++) {
          long t = 1_000_000_000L + r * 1_000_000L;
          q.sent();
          q.ok(t, t + 3_000_000L);
        }
      }
    }
    until = Instant.now().plusSeconds(60).toString();
    chat = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    chat.createContext(
        "/hooks/",
        exchange -> {
          received.add(
              new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    chat.start();
  }

  @AfterAll
  static void stop() {
    chat.stop(0);
  }

  private static String webhook() {
    return "http://127.0.0.1:" + chat.getAddress().getPort() + "/hooks/" + TOKEN;
  }

  @Test
  void theReportIsPrintedWrittenAndPostedWithItsTemplate() throws Exception {
    received.clear();
    Path out = base.resolve("out");
    Path template = base.resolve("message.txt");
    Files.writeString(template, "{{title}}\n{{verdict}}\n{{summary}}\n");
    CliRun trend =
        CliRun.of(
            "trend",
            history.toString(),
            "--period",
            "24h",
            "--until",
            until,
            "--output",
            out.toString(),
            "--notify",
            webhook(),
            "--notify-template",
            template.toString());
    assertThat(trend.exitCode()).as(trend.out() + trend.err()).isZero();
    assertThat(trend.out())
        .startsWith("# Fusillade period report: 24h to ")
        .contains("## nightly.yml")
        .contains("Runs: 2 runs this period, no run the previous one.")
        .contains("- no run in the previous period: nothing to compare with")
        .contains("- p99: - → 3.")
        .contains("Period report: " + out.resolve("trend-24h.md").toAbsolutePath())
        .contains("Posted to the chat webhook at 127.0.0.1:" + chat.getAddress().getPort() + ".");
    assertThat(out.resolve("trend-24h.md"))
        .content()
        .isEqualTo(trend.out().substring(0, trend.out().indexOf("\nPeriod report: ")));
    JsonNode json = new ObjectMapper().readTree(out.resolve("trend-24h.json").toFile());
    assertThat(json.path("tests").get(0).path("test").asText()).isEqualTo("nightly.yml");
    assertThat(json.path("tests").get(0).path("current").path("runs")).hasSize(2);
    String message = received.poll(5, TimeUnit.SECONDS);
    assertThat(message).isNotNull();
    String text = new ObjectMapper().readTree(message).path("text").asText();
    assertThat(text)
        .startsWith("Fusillade period report: 24h to ")
        .contains("\nnothing worse in 1 tests (a metric is worse when Welch's t-test")
        .endsWith("- nightly.yml: 2 runs this period, 0 the previous one: nothing worse\n");
    for (String shown :
        List.of(
            trend.out(),
            trend.err(),
            text,
            Files.readString(out.resolve("trend-24h.md")),
            Files.readString(out.resolve("trend-24h.json")))) {
      assertThat(shown).doesNotContain("S3cr3t").doesNotContain("/hooks/");
    }
  }

  @Test
  void withoutOutputTheReportGoesIntoTheHistory() {
    CliRun trend = CliRun.of("trend", history.toString(), "--period", "4h", "--until", until);
    assertThat(trend.exitCode()).as(trend.out() + trend.err()).isZero();
    assertThat(history.resolve("trend-4h.md")).exists();
    assertThat(history.resolve("trend-4h.json")).exists();
  }

  @Test
  void aChatThatIsGoneIsAWarningAndTheExitCodeStaysTheVerdicts() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    CliRun trend =
        CliRun.of(
            "trend",
            history.toString(),
            "--period",
            "24h",
            "--until",
            until,
            "-o",
            base.resolve("gone").toString(),
            "--notify",
            "https://bot:pa55w0rd@127.0.0.1:" + port + "/hooks/" + TOKEN);
    assertThat(trend.exitCode()).as(trend.out() + trend.err()).isZero();
    assertThat(trend.out())
        .contains(
            "WARNING: the report was not posted to the chat webhook at 127.0.0.1:"
                + port
                + ": cannot connect (refused, or no route)")
        .doesNotContain("S3cr3t")
        .doesNotContain("pa55w0rd");
  }

  @Test
  void everyMistakeIsOneLineAndExitCodeTwo() throws Exception {
    Path unknownField = base.resolve("unknown.txt");
    Files.writeString(unknownField, "{{title}}\n{{p99}}\n");
    Map<List<String>, String> mistakes =
        Map.of(
            List.of(history.toString(), "--period", "24x"),
            "fusillade: --period: '24x' is not a period: a whole number of minutes, hours or days"
                + " such as 30m, 4h, 24h or 7d",
            List.of(base.resolve("missing").toString(), "--period", "24h"),
            "fusillade: no such directory: " + base.resolve("missing"),
            List.of(history.toString(), "--notify", webhook()),
            "fusillade: --notify: only with --period (the chart of change points has no periods)",
            List.of(history.toString(), "--period", "24h", "--threshold", "-5%"),
            "fusillade: --threshold: the threshold must be >= 0, got -0.05",
            List.of(history.toString(), "--period", "24h", "--until", "yesterday"),
            "fusillade: --until: 'yesterday' is not a time such as 2026-11-27T10:00:00Z (UTC,"
                + " ISO-8601)",
            List.of(history.toString(), "--period", "24h", "--notify", "hooks.example/" + TOKEN),
            "fusillade: --notify: not an http:// or https:// URL with a host (the URL is not"
                + " shown: a webhook's URL is its secret)",
            List.of(
                history.toString(),
                "--period",
                "24h",
                "--notify",
                webhook(),
                "--notify-template",
                unknownField.toString()),
            "fusillade: "
                + unknownField
                + " line 2: unknown field {{p99}} (the fields: from, history, period, report,"
                + " summary, tests, title, until, verdict, worse)");
    mistakes.forEach(
        (args, line) -> {
          List<String> all = new java.util.ArrayList<>(List.of("trend"));
          all.addAll(args);
          CliRun run = CliRun.of(all.toArray(String[]::new));
          assertThat(run.exitCode()).as("%s", args).isEqualTo(2);
          assertThat(run.err()).as("%s", args).isEqualTo(line + System.lineSeparator());
          assertThat(run.out()).as("%s", args).isEmpty();
        });
  }
}
