package io.fusillade.logs;

import io.fusillade.record.Counter;
import io.fusillade.record.LatencyMetric;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures time-to-searchable: once per period it writes a marker document (one field of its own,
 * {@value #MARKER_FIELD}, holding a known id, which is also its {@code _id}) and searches for it
 * every {@code poll} until a search finds it. The delay from sending the write to the search
 * response that first finds it goes into a latency metric; a marker not found within {@code
 * timeout} counts as a timeout instead.
 *
 * <p>It runs on its own thread, one marker at a time: a marker that takes longer than the period
 * delays the next one (the schedule never piles up). A marker matches no search of the profile's
 * fields, so reads that run beside the probe count the load's documents only. Closing stops it and
 * deletes the markers, so the index holds only the load's documents afterwards. (An index mapped
 * {@code dynamic: strict} refuses the marker's field: each marker is then not written.)
 *
 * <p>On seq-db, which takes no {@code _id} and deletes nothing, the marker is searched in seq-ql by
 * its field (which the mapping must index: {@link SeqDbMappings} adds it); the markers stay after
 * the run.
 */
public final class SearchabilityProbe implements AutoCloseable {
  /** The default name of the metric in the run record. */
  public static final String METRIC = "time-to-searchable";

  /** The default name of the counter of markers not found in time. */
  public static final String TIMEOUTS = "time-to-searchable timeouts";

  private static final Logger LOG = LoggerFactory.getLogger(SearchabilityProbe.class);

  /**
   * Probe settings.
   *
   * @param period how often a marker is written (default 1 s)
   * @param poll how often a marker is searched for (default 50 ms)
   * @param timeout how long to look for a marker before counting a timeout (default 30 s)
   */
  public record Settings(Duration period, Duration poll, Duration timeout) {
    public static final Settings DEFAULT =
        new Settings(Duration.ofSeconds(1), Duration.ofMillis(50), Duration.ofSeconds(30));
  }

  private final LogsClient client;
  private final String index;
  private final LatencyMetric metric;
  private final Counter timeouts;
  private final Settings settings;
  private final String prefix;
  private final List<String> markers = new ArrayList<>();
  private final Thread thread;
  private final boolean seqDb;
  private volatile boolean running = true;

  /**
   * The field of seq-db's markers ({@code {"fusillade_marker":"fusillade-tts-RUN-7"}}): its mapping
   * must index it as a keyword ({@link SeqDbMappings} adds it to every mapping it writes).
   */
  public static final String MARKER_FIELD = "fusillade_marker";

  /**
   * Starts probing at once.
   *
   * @param client the client
   * @param index the index the load writes to
   * @param metric where delays go
   * @param timeouts counts markers not found in time
   * @param settings period, poll interval and timeout
   * @param runId a unique id for marker ids
   */
  public SearchabilityProbe(
      LogsClient client,
      String index,
      LatencyMetric metric,
      Counter timeouts,
      Settings settings,
      String runId) {
    this.client = client;
    this.index = index;
    this.metric = metric;
    this.timeouts = timeouts;
    this.settings = settings;
    this.seqDb = client.options().store() == LogStore.SEQ_DB;
    this.prefix = "fusillade-tts-" + runId.replaceAll("[^A-Za-z0-9_-]", "_") + "-";
    this.thread = new Thread(this::loop, "fusillade-time-to-searchable");
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    long periodNanos = settings.period().toNanos();
    long next = System.nanoTime();
    int n = 0;
    JsonBuffer body = new JsonBuffer(4096);
    while (running) {
      long wait = next - System.nanoTime();
      if (wait > 0 && !sleep(wait)) {
        return;
      }
      next = Math.max(next + periodNanos, System.nanoTime());
      String id = prefix + n;
      n++;
      try {
        probe(id, body);
      } catch (RuntimeException e) {
        LOG.debug("time-to-searchable probe failed: {}", e.toString());
      }
    }
  }

  private void probe(String id, JsonBuffer body) {
    body.reset();
    // A document of one field of its own: it matches no search of the profile's fields, so the
    // reads that run while the probe does count the load's documents only. seq-db takes no _id.
    if (seqDb) {
      body.ascii("{\"index\":{}}\n");
    } else {
      body.ascii("{\"index\":{\"_id\":").string(id).ascii("}}\n");
    }
    body.ascii("{\"" + MARKER_FIELD + "\":").string(id).ascii("}\n");
    long start = System.nanoTime();
    BulkResult written = client.bulk(index, body, false, 1).join();
    if (!written.ok()) {
      LOG.debug("time-to-searchable marker not written: {}", written.reason());
      return;
    }
    synchronized (markers) {
      markers.add(id);
    }
    String query =
        "{\"size\":1,\"_source\":false,\"query\":{\"ids\":{\"values\":["
            + new String(JsonBuffer.quoted(id), StandardCharsets.UTF_8)
            + "]}}}";
    long deadline = start + settings.timeout().toNanos();
    SeqDbQuery seqDbQuery =
        SeqDbQuery.of(
                MARKER_FIELD + ":" + new String(JsonBuffer.quoted(id), StandardCharsets.UTF_8))
            .withSize(1);
    while (running) {
      long sent = System.nanoTime();
      SearchResult found =
          seqDb
              ? client.seqDb(seqDbQuery).join()
              : client.search(index, query, "request_cache=false").join();
      if (found.ok() && found.hits() > 0) {
        metric.record(start, found.endNanos());
        return;
      }
      if (found.endNanos() >= deadline) {
        timeouts.increment();
        return;
      }
      long wait = sent + settings.poll().toNanos() - System.nanoTime();
      if (wait > 0 && !sleep(wait)) {
        return;
      }
    }
  }

  private boolean sleep(long nanos) {
    try {
      TimeUnit.NANOSECONDS.sleep(nanos);
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  /** The marker ids written so far. */
  public List<String> markers() {
    synchronized (markers) {
      return List.copyOf(markers);
    }
  }

  /** Stops probing and deletes the markers (waits up to 5 s for the current marker). */
  @Override
  public void close() {
    running = false;
    thread.interrupt();
    try {
      thread.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<String> written = markers();
    if (written.isEmpty() || seqDb) {
      return; // seq-db deletes nothing: its markers stay, in a field of their own
    }
    JsonBuffer deletes = new JsonBuffer(written.size() * 64);
    for (String id : written) {
      deletes.ascii("{\"delete\":{\"_id\":").string(id).ascii("}}\n");
    }
    BulkResult deleted = client.bulk(index, deletes, false, written.size()).join();
    if (deleted.error() != null) {
      LOG.warn("Could not delete the time-to-searchable markers: {}", deleted.reason());
    }
  }
}
