package io.fusillade.gatling.metrics;

import io.fusillade.FusilladeException;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.FlushListener;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.RunStatus;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Prometheus endpoint ({@code http://host:port/metrics}) that shows a run while it runs: requests
 * sent, OK and KO by name, errors by reason and failure class, latency histograms, injector lag,
 * consumer lag and the injection step (the metric names are in the site's "Live metrics" section
 * and on {@link RunMetrics}). Served by the official Prometheus Java client ({@code
 * prometheus-metrics-exporter-httpserver}), in the text format, OpenMetrics or protobuf as the
 * scraper asks.
 *
 * <p>The values come from the run recorder's once-a-second flush ({@link
 * io.fusillade.record.FlushListener}): watching a run adds no work per request, and what the
 * endpoint shows is what the run record holds, up to the last second.
 *
 * <p>A simulation gets one with {@code -Dfusillade.metrics.port=9464} ({@link #PORT_PROPERTY});
 * {@code fusillade run --metrics-port 9464} sets it. From Java:
 *
 * <pre>{@code
 * try (RunRecorder run = RunRecorder.open(RunOptions.of("my-test"));
 *     LiveMetrics metrics = LiveMetrics.start(run, 9464, Map.of(), Duration.ZERO)) {
 *   ...
 * }
 * }</pre>
 */
public final class LiveMetrics implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LiveMetrics.class);

  /** The system property that starts the endpoint on this port (0: any free port). */
  public static final String PORT_PROPERTY = PlanProperties.METRICS_PORT;

  /**
   * The system property: how long, in seconds, the endpoint stays up after the run ended, so that a
   * last scrape sees the run's totals (default 0). Prometheus scrapes every 15 s by default: give
   * it that long to see the last seconds of a run.
   */
  public static final String HOLD_PROPERTY = PlanProperties.METRICS_HOLD;

  /** The system property: the address to listen on (default all interfaces). */
  public static final String HOST_PROPERTY = PlanProperties.METRICS_HOST;

  private final HTTPServer server;
  private final Duration hold;
  private volatile long endedNanos; // when the run ended; 0 while it runs
  private boolean closed; // guarded by this

  private LiveMetrics(HTTPServer server, Duration hold) {
    this.server = server;
    this.hold = hold;
  }

  /**
   * Stops the endpoint once the run ended and the hold is over, from a thread of its own: the JDK's
   * HTTP server runs a non-daemon thread, which must not keep a JVM alive after its run.
   */
  private final class StopAfterRun implements FlushListener {
    @Override
    public void closed(RunStatus status) {
      endedNanos = System.nanoTime();
      Thread stopper = new Thread(LiveMetrics.this::close, "fusillade-metrics-stop");
      stopper.setDaemon(true);
      stopper.start();
    }
  }

  /**
   * Serves the run's metrics on {@code port} from now until {@link #close()}.
   *
   * @param run the run to watch
   * @param port the TCP port, or 0 for any free one ({@link #port()})
   * @param parameters the run's parameters: their {@code injection} gives the steps, their {@code
   *     simulation} the label (may be empty)
   * @param hold how long {@link #close()} keeps serving first, so that a last scrape sees the end
   * @return the running endpoint
   * @throws FusilladeException when the port cannot be listened on (in use, not allowed)
   */
  public static LiveMetrics start(
      RunRecorder run, int port, Map<String, ?> parameters, Duration hold) {
    return start(run, null, port, parameters, hold);
  }

  private static LiveMetrics start(
      RunRecorder run, String host, int port, Map<String, ?> parameters, Duration hold) {
    Object simulation = parameters.get("simulation");
    RunMetrics metrics =
        new RunMetrics(
            run.runId(),
            simulation == null ? "" : simulation.toString(),
            InjectionSchedule.of(parameters));
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(metrics);
    HTTPServer server;
    try {
      HTTPServer.Builder builder = HTTPServer.builder().port(port).registry(registry);
      if (host != null) {
        builder.hostname(host);
      }
      server = builder.buildAndStart();
    } catch (IOException e) {
      throw new FusilladeException(
          "the metrics endpoint cannot listen on port " + port + " (" + PORT_PROPERTY + "): " + e);
    }
    run.listen(metrics);
    LiveMetrics live = new LiveMetrics(server, hold);
    run.listen(live.new StopAfterRun());
    LOG.info("Fusillade live metrics: http://localhost:{}/metrics", server.getPort());
    return live;
  }

  /**
   * Starts the endpoint when the plan gives it a port; it stops {@code metricsHold} after the run
   * ended, and a JVM that exits sooner waits for that. Returns null when no port is given.
   *
   * @throws FusilladeException when the port is out of range or cannot be listened on
   */
  public static LiveMetrics start(RunRecorder run, Map<String, ?> parameters, RunPlan.Live live) {
    Integer port = live.metricsPort();
    if (port == null) {
      return null;
    }
    Duration hold = live.metricsHold() == null ? Duration.ZERO : live.metricsHold();
    if (port < 0 || port > 65535 || hold.isNegative()) {
      throw new FusilladeException(
          PORT_PROPERTY + " must be 0-65535 and " + HOLD_PROPERTY + " >= 0, got " + port);
    }
    LiveMetrics metrics = start(run, live.metricsHost(), port, parameters, hold);
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(metrics::close, "fusillade-metrics-stop"));
    } catch (IllegalStateException exiting) {
      metrics.close();
    }
    return metrics;
  }

  /** The port the endpoint listens on. */
  public int port() {
    return server.getPort();
  }

  /**
   * Stops the endpoint when the hold given at start is over: counted from the run's end when it
   * ended, else from now. The run's end stops it by itself; a second call waits for the first.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    long ended = endedNanos;
    long waitNanos = ended == 0 ? hold.toNanos() : ended + hold.toNanos() - System.nanoTime();
    if (waitNanos > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(waitNanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    server.close();
    closed = true;
  }
}
