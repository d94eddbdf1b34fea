package io.fusillade.system;

import io.fusillade.record.RunRecorder;
import io.fusillade.system.PrometheusText.Scrape;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the metrics of the servers under test into a run record, second by second beside the
 * requests: it scrapes each {@link ServerTarget}'s Prometheus endpoint once a second on a thread of
 * its own (never on the recorder's flush, which must not wait for the network) and serves the last
 * values as gauges {@code server.<name>.<gauge>} ({@link ServerMetrics} tells which).
 *
 * <p>A value older than {@value #STALE_MILLIS} ms is not recorded: a server that stops answering
 * shows as a gap, not as its last value repeated. A scrape that fails costs that second, never the
 * run; at the end, {@code health.servers} of {@code run.json} says per target how many scrapes
 * answered and why the others did not, and a target that never answered flags the run.
 */
public final class ServerScraper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerScraper.class);

  /** The system property holding the targets, one per line ({@link ServerTarget#toLine()}). */
  public static final String PROPERTY = "fusillade.monitor";

  /**
   * The environment variable holding the targets instead of {@link #PROPERTY} when a URL has a
   * password: a command line is visible to every user of the machine.
   */
  public static final String ENVIRONMENT = "FUSILLADE_MONITOR";

  /** The prefix of the servers' gauges. */
  public static final String PREFIX = "server.";

  /** The health entry of {@code run.json}. */
  public static final String HEALTH_KEY = "servers";

  static final long STALE_MILLIS = 2500;
  private static final Duration PERIOD = Duration.ofSeconds(1);
  private static final Duration TIMEOUT = Duration.ofMillis(900);

  private final RunRecorder run;
  private final HttpClient http;
  private final ScheduledExecutorService timer;
  private final List<Target> targets = new ArrayList<>();

  /** One target's state; its fields are written by the scrape's callback, one at a time. */
  private final class Target {
    final ServerTarget target;
    final String authorization;
    final java.net.URI address; // the URL without its user and password, which go in a header
    final AtomicBoolean inFlight = new AtomicBoolean();
    volatile Map<String, Double> values = Map.of();
    final Set<String> registered = ConcurrentHashMap.newKeySet();
    final Set<String> kinds = ConcurrentHashMap.newKeySet();
    volatile long valuesNanos;
    volatile Scrape last;
    volatile int answered;
    volatile int failed;
    volatile String lastError;

    Target(ServerTarget target) {
      this.target = target;
      this.address = java.net.URI.create(target.shownUrl());
      String user = target.url().getRawUserInfo();
      this.authorization =
          user == null
              ? null
              : "Basic "
                  + Base64.getEncoder()
                      .encodeToString(
                          java.net.URLDecoder.decode(user, StandardCharsets.UTF_8)
                              .getBytes(StandardCharsets.UTF_8));
    }

    void scrape() {
      if (!inFlight.compareAndSet(false, true)) {
        return; // the previous answer is still coming: one request at a time per server
      }
      HttpRequest.Builder request =
          HttpRequest.newBuilder(address).timeout(TIMEOUT).header("Accept", "text/plain");
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      http.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString())
          .whenComplete(
              (response, error) -> {
                try {
                  if (error != null) {
                    failed(reason(error));
                  } else if (response.statusCode() != 200) {
                    failed("HTTP " + response.statusCode());
                  } else {
                    answered(PrometheusText.parse(response.body(), System.nanoTime()));
                  }
                } catch (RuntimeException e) {
                  failed(e.getClass().getSimpleName());
                } finally {
                  inFlight.set(false);
                }
              });
    }

    private void failed(String reason) {
      if (failed++ == 0) {
        LOG.warn("Server metrics of {} ({}): {}", target.name(), target.shownUrl(), reason);
      }
      lastError = reason;
    }

    private void answered(Scrape scrape) {
      answered++;
      kinds.addAll(ServerMetrics.kinds(scrape));
      Map<String, Double> now = ServerMetrics.values(target, last, scrape);
      last = scrape;
      values = Map.copyOf(now); // one reference: a reader never sees half a scrape
      valuesNanos = scrape.nanos();
      for (String gauge : now.keySet()) {
        if (registered.add(gauge)) {
          run.gauge(PREFIX + target.name() + "." + gauge, () -> value(gauge));
        }
      }
    }

    double value(String gauge) {
      if (System.nanoTime() - valuesNanos > TimeUnit.MILLISECONDS.toNanos(STALE_MILLIS)) {
        return Double.NaN;
      }
      Double v = values.get(gauge);
      return v == null ? Double.NaN : v;
    }

    Map<String, Object> health() {
      Map<String, Object> h = new LinkedHashMap<>();
      h.put("url", target.shownUrl());
      h.put("exporter", String.join("+", new TreeSet<>(kinds)));
      h.put("answered", answered);
      h.put("failed", failed);
      if (lastError != null) {
        h.put("lastError", lastError);
      }
      List<String> missing = new ArrayList<>();
      for (String metric : target.metrics()) {
        if (!registered.contains("metric." + metric)) {
          missing.add(metric);
        }
      }
      if (!missing.isEmpty()) {
        h.put("metricsNeverServed", missing);
      }
      return h;
    }
  }

  private ServerScraper(RunRecorder run, List<ServerTarget> targets) {
    this.run = run;
    this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fusillade-server-metrics");
              t.setDaemon(true);
              return t;
            });
    for (ServerTarget t : targets) {
      this.targets.add(new Target(t));
    }
  }

  /**
   * Starts recording the servers' metrics into {@code run}, until the run finishes (then the
   * scraper closes and {@code health.servers} is written). Nothing starts for no target.
   *
   * @param run the run record
   * @param targets the servers
   * @return the scraper
   */
  public static ServerScraper install(RunRecorder run, List<ServerTarget> targets) {
    ServerScraper scraper = new ServerScraper(run, targets);
    if (targets.isEmpty()) {
      return scraper;
    }
    scraper.timer.scheduleAtFixedRate(
        scraper::scrapeAll, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    run.onFinish(
        () -> {
          scraper.close();
          run.health(HEALTH_KEY, scraper.health());
          scraper.warnings().forEach(run::flag);
        });
    return scraper;
  }

  private void scrapeAll() {
    for (Target t : targets) {
      t.scrape();
    }
  }

  /** {@code health.servers}: per target, its URL, the exporter recognised, the scrapes' outcome. */
  Map<String, Object> health() {
    Map<String, Object> health = new LinkedHashMap<>();
    for (Target t : targets) {
      health.put(t.target.name(), t.health());
    }
    return health;
  }

  /** A flag per target that never answered. */
  List<String> warnings() {
    List<String> warnings = new ArrayList<>();
    for (Target t : targets) {
      if (t.answered == 0) {
        warnings.add(
            "server metrics of "
                + t.target.name()
                + " ("
                + t.target.shownUrl()
                + "): no answer in "
                + t.failed
                + " tries"
                + (t.lastError == null ? "" : " (" + t.lastError + ")")
                + ": the run has none of its metrics");
      }
    }
    return warnings;
  }

  private static String reason(Throwable error) {
    for (Throwable c = error; c != null; c = c.getCause()) {
      if (c instanceof ConnectException) {
        return "connection refused";
      }
      if (c instanceof HttpTimeoutException) {
        return "no answer within " + TIMEOUT.toMillis() + " ms";
      }
    }
    Throwable cause = error;
    while (cause.getCause() != null && cause instanceof java.util.concurrent.CompletionException) {
      cause = cause.getCause();
    }
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  /** Stops scraping; the gauges then record nothing. */
  @Override
  public void close() {
    timer.shutdownNow();
  }
}
