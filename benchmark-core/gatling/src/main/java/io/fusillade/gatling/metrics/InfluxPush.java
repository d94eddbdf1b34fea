package io.fusillade.gatling.metrics;

import io.fusillade.FusilladeException;
import io.fusillade.Secrets;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.FailureClass;
import io.fusillade.record.FlushListener;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes each second of a run to InfluxDB in its line protocol: one POST per flushed interval to
 * the write URL given ({@code http://host:8086/write?db=fusillade} for InfluxDB 1.x, {@code
 * http://host:8086/api/v2/write?org=o&bucket=b} for 2.x and 3.x, with the token in the environment
 * variable {@value #TOKEN_VARIABLE}). The values are the interval's, not totals: requests sent, OK,
 * KO and their latency percentiles, errors by reason and class, the other latencies (injector lag,
 * end-to-end), gauges (consumer lag, CPU) and counter increases; timestamps in nanoseconds.
 *
 * <p>The body is built on the recorder's flushing thread (a few microseconds a request name) and
 * sent from a thread of its own, so that a slow or absent InfluxDB never delays the run record:
 * when a push is still in flight, the next waits in a queue of {@value #QUEUE} intervals, and the
 * interval after a full queue is dropped and counted. A failed push is logged (the first, then
 * every hundredth).
 */
public final class InfluxPush implements FlushListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(InfluxPush.class);

  /** The system property that turns the push on: the write URL. */
  public static final String URL_PROPERTY = PlanProperties.INFLUX_URL;

  /** The environment variable holding the API token (InfluxDB 2.x, 3.x); absent for 1.x. */
  public static final String TOKEN_VARIABLE = "FUSILLADE_INFLUX_TOKEN";

  private static final int QUEUE = 30;
  private static final double[] PERCENTILES = {50, 95, 99};

  private final URI url;
  private final String token;
  private final String runTag;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ThreadPoolExecutor sender =
      new ThreadPoolExecutor(
          1,
          1,
          0,
          TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(QUEUE),
          r -> {
            Thread thread = new Thread(r, "fusillade-influx");
            thread.setDaemon(true);
            return thread;
          },
          (task, executor) -> {
            // the queue is full: InfluxDB is far behind; drop this second rather than wait
          });
  private final AtomicLong failures = new AtomicLong();
  private final AtomicLong pushed = new AtomicLong();

  private InfluxPush(URI url, String token, String runId) {
    this.url = url;
    this.token = token;
    this.runTag = ",run=" + tag(runId);
  }

  /**
   * Pushes {@code run}'s intervals to {@code writeUrl} from now on.
   *
   * @param run the run
   * @param writeUrl InfluxDB's write URL, with its query (database or org and bucket)
   * @param token the API token, or null
   * @throws FusilladeException naming the URL when it is not an http(s) URL
   */
  public static InfluxPush start(RunRecorder run, String writeUrl, String token) {
    URI uri;
    try {
      uri = URI.create(writeUrl.strip());
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    if (uri == null
        || uri.getHost() == null
        || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
      throw new FusilladeException(
          URL_PROPERTY
              + ": \""
              + writeUrl
              + "\" is not an http(s) URL (example: http://localhost:8086/write?db=fusillade)");
    }
    InfluxPush push = new InfluxPush(uri, token, run.runId());
    run.listen(push);
    LOG.info("Fusillade pushes the run to InfluxDB: {}", Secrets.mask(uri.toString()));
    return push;
  }

  /**
   * Starts the push when the plan gives a write URL (the token from {@value #TOKEN_VARIABLE}), and
   * ends it when the run closes. Returns null when it gives none.
   */
  public static InfluxPush start(RunRecorder run, RunPlan.Live live) {
    String url = live.influxUrl();
    if (url == null || url.isBlank()) {
      return null;
    }
    return start(run, url, System.getenv(TOKEN_VARIABLE));
  }

  // --- escaping, as the line protocol wants it ---

  static String tag(String value) {
    String text = value.isEmpty() ? "-" : value;
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == '=' || c == ' ' || c == '\\') {
        out.append('\\');
      } else if (c == '\n' || c == '\r') {
        out.append(' ');
        continue;
      }
      out.append(c);
    }
    return out.toString();
  }

  // This interval's lines, each ending with " @\n" where its timestamp goes: the time is known
  // only at the interval's end. No other " @\n" can occur: tags escape spaces, fields are numbers.
  private final StringBuilder pending = new StringBuilder();

  @Override
  public void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    long koCount = ko == null ? 0 : ko.getTotalCount();
    StringBuilder fields = new StringBuilder();
    fields.append("sent=").append(sent).append("i,ok=").append(ok.getTotalCount()).append("i");
    fields.append(",ko=").append(koCount).append('i');
    if (ok.getTotalCount() > 0) {
      for (double p : PERCENTILES) {
        fields.append(",p").append((int) p).append("_ms=").append(ok.getValueAtPercentile(p) / 1e3);
      }
      fields.append(",max_ms=").append(ok.getMaxValue() / 1e3);
    }
    pending.append("fusillade_requests").append(runTag).append(",request=").append(tag(name));
    pending.append(' ').append(fields).append(" @\n");
    errors.forEach(
        (reason, count) ->
            pending
                .append("fusillade_errors")
                .append(runTag)
                .append(",class=")
                .append(FailureClass.of(reason).label())
                .append(",reason=")
                .append(tag(reason))
                .append(",request=")
                .append(tag(name))
                .append(" count=")
                .append(count)
                .append("i @\n"));
  }

  @Override
  public void metric(String name, Histogram interval) {
    pending
        .append("fusillade_metrics")
        .append(runTag)
        .append(",metric=")
        .append(tag(name))
        .append(" count=")
        .append(interval.getTotalCount())
        .append("i,p99_ms=")
        .append(interval.getValueAtPercentile(99) / 1e3)
        .append(",max_ms=")
        .append(interval.getMaxValue() / 1e3)
        .append(" @\n");
  }

  @Override
  public void counter(String name, long delta) {
    pending
        .append("fusillade_counters")
        .append(runTag)
        .append(",name=")
        .append(tag(name))
        .append(" delta=")
        .append(delta)
        .append("i @\n");
  }

  @Override
  public void gauge(String name, double value) {
    pending
        .append("fusillade_gauges")
        .append(runTag)
        .append(",name=")
        .append(tag(name))
        .append(" value=")
        .append(value)
        .append(" @\n");
  }

  @Override
  public void intervalEnd(long epochMs, double elapsedSeconds) {
    pending.append("fusillade_run").append(runTag).append(" elapsed_s=").append(elapsedSeconds);
    pending.append(" @\n");
    String timestamp = Long.toString(epochMs * 1_000_000L);
    String payload = pending.toString().replace(" @\n", " " + timestamp + "\n");
    pending.setLength(0);
    sender.execute(() -> send(payload));
  }

  @Override
  public void closed(RunStatus status) {
    close();
  }

  private void send(String payload) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "text/plain; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(payload));
    if (token != null && !token.isBlank()) {
      request.header("Authorization", "Token " + token);
    }
    try {
      HttpResponse<String> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        failed("HTTP " + response.statusCode() + ": " + firstLine(response.body()));
      } else {
        pushed.incrementAndGet();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      failed(e.toString());
    }
  }

  private void failed(String why) {
    long n = failures.incrementAndGet();
    if (n == 1 || n % 100 == 0) {
      LOG.warn(
          "Could not push the run to InfluxDB at {} ({} failures): {}",
          Secrets.mask(url.toString()),
          n,
          Secrets.mask(why));
    }
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline);
  }

  /** Intervals pushed so far (answered 2xx). */
  public long pushed() {
    return pushed.get();
  }

  /** Sends what is queued (waiting up to 10 s), then stops. */
  @Override
  public void close() {
    sender.shutdown();
    try {
      sender.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
