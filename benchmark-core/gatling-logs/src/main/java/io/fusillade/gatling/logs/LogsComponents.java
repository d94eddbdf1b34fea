package io.fusillade.gatling.logs;

import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.SessionlessComponents;
import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.logs.LogSource;
import io.fusillade.logs.LogsClient;
import io.fusillade.logs.SearchabilityProbe;
import io.fusillade.record.Counter;
import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import io.gatling.core.CoreComponents;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The logs protocol's per-run state: the client, the builders of bulk bodies, the pool of body
 * buffers, the position in the data set, the counters, and the probe.
 *
 * <p>Counters in the run record (per second in {@code counters.jsonl}): {@value #DOCUMENTS}
 * (documents stored), {@value #BYTES} (uncompressed NDJSON bytes of those bulks), {@value
 * #WIRE_BYTES} (bytes sent, after gzip), {@value #FAILED} and {@value #REJECTED} (items), and
 * {@code logs.failed.<reason>} per failure reason. Metric {@value #BUILD}: time to build a body.
 */
public final class LogsComponents extends SessionlessComponents implements AutoCloseable {
  public static final String DOCUMENTS = "logs.documents";
  public static final String BYTES = "logs.bytes";
  public static final String WIRE_BYTES = "logs.wireBytes";
  public static final String FAILED = "logs.failedItems";
  public static final String REJECTED = "logs.rejectedItems";
  public static final String BUILD = "logs bulk build";

  private static final AtomicInteger THREADS = new AtomicInteger();

  private final LogsSettings settings;
  private final LogsClient client;
  private final LogSource source;
  private final ThreadPoolExecutor builders;
  private final ConcurrentLinkedQueue<Workspace> workspaces = new ConcurrentLinkedQueue<>();
  private final InjectorShare share;
  private final AtomicLong nextDocument;
  private final AtomicLong bulks;
  private final Counter documents;
  private final Counter bytes;
  private final Counter wireBytes;
  private final Counter failed;
  private final Counter rejected;
  private final LatencyMetric build;
  private final Map<String, Counter> failedByReason = new ConcurrentHashMap<>();
  private final SearchabilityProbe probe;
  private final StepReport steps;
  // when the first bulk was entered and the last one answered, on System.nanoTime()
  private final AtomicLong firstBulkNanos = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastBulkNanos = new AtomicLong(Long.MIN_VALUE);

  /** The run parameter of the ingest's precise span ({@link #bulkSent}, {@link #count}). */
  public static final String INGEST_WINDOW = "ingestWindow";

  /** Buffers and compressor for one bulk in flight. */
  static final class Workspace {
    final JsonBuffer plain = new JsonBuffer(1 << 20);
    final JsonBuffer wire = new JsonBuffer(1 << 16);
    final BulkBodies bodies = new BulkBodies();
  }

  LogsComponents(LogsSettings settings, CoreComponents core, RunRecorder recorder) {
    super(core, recorder);
    this.settings = settings;
    // node down/up go to the run record (the recorder is the run's RunEvents)
    this.client = LogsClient.open(settings.clientOptions(), recorder);
    this.source = settings.logSource();
    this.share = InjectorShare.current();
    this.nextDocument = new AtomicLong(settings.firstDocument());
    this.bulks = new AtomicLong();
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    this.builders =
        new ThreadPoolExecutor(
            threads,
            threads,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(10_000),
            r -> {
              Thread t = new Thread(r, "fusillade-logs-build-" + THREADS.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.documents = recorder.counter(DOCUMENTS);
    this.bytes = recorder.counter(BYTES);
    this.wireBytes = recorder.counter(WIRE_BYTES);
    this.failed = recorder.counter(FAILED);
    this.rejected = recorder.counter(REJECTED);
    this.build = recorder.metric(BUILD);
    // Before injection: an unreachable store or a bad mapping fails the run here, clearly.
    if (settings.index().create() != null) {
      client.createIndex(settings.index().create(), settings.index().recreate());
    }
    // What store and index settings this run measured, for compare to name what differed.
    recorder.parameter("logs.server", client.identity(settings.index().name()));
    this.steps = StepReport.of(recorder);
    this.probe =
        settings.probe() == null
            ? null
            : new SearchabilityProbe(
                client,
                settings.indexName(),
                recorder.metric(SearchabilityProbe.METRIC),
                recorder.counter(SearchabilityProbe.TIMEOUTS),
                settings.probe(),
                recorder.runId());
  }

  LogsSettings settings() {
    return settings;
  }

  public LogsClient client() {
    return client;
  }

  LogSource source() {
    return source;
  }

  ThreadPoolExecutor builders() {
    return builders;
  }

  /**
   * Reserves the next {@code count} documents of the data set; returns the first one's index. Of
   * several injectors ({@link InjectorShare}, the run's), this one's next bulk of the single run's
   * sequence: bulk {@code index}, {@code index + injectors}, ..., so that together they send each
   * document once (every bulk of the protocol must then have the same size).
   */
  long reserve(int count) {
    if (share.alone()) {
      return nextDocument.getAndAdd(count);
    }
    long bulk = bulks.getAndIncrement() * share.count() + share.index();
    return settings.firstDocument() + bulk * count;
  }

  Workspace borrow() {
    Workspace w = workspaces.poll();
    return w != null ? w : new Workspace();
  }

  void release(Workspace w) {
    workspaces.offer(w);
  }

  LatencyMetric buildMetric() {
    return build;
  }

  /** A bulk of the data set is being sent: the ingest's span starts with the first. */
  void bulkSent(long nanos) {
    firstBulkNanos.accumulateAndGet(nanos, Math::min);
  }

  void count(int stored, long plainBytes, long sentBytes, io.fusillade.logs.BulkResult result) {
    lastBulkNanos.accumulateAndGet(result.endNanos(), Math::max);
    documents.add(stored);
    bytes.add(plainBytes);
    wireBytes.add(sentBytes);
    if (result.failed() > 0) {
      failed.add(result.failed());
      rejected.add(result.rejected());
      result
          .failuresByReason()
          .forEach(
              (reason, n) ->
                  failedByReason
                      .computeIfAbsent(reason, r -> recorder().counter("logs.failed." + r))
                      .add(n));
    }
  }

  /**
   * Records {@value #INGEST_WINDOW} in {@code run.json}: from the first bulk sent to the last one
   * answered, in epoch milliseconds, to the millisecond ({@code counters.jsonl} has whole seconds):
   * documents/s over the time the ingest took, for a comparison of stores.
   */
  private void recordIngestWindow() {
    long first = firstBulkNanos.get();
    long last = lastBulkNanos.get();
    if (first == Long.MAX_VALUE || last < first) {
      return;
    }
    long nowNanos = System.nanoTime();
    long nowMs = System.currentTimeMillis();
    recorder()
        .parameter(
            INGEST_WINDOW,
            java.util.Map.of(
                "startEpochMs", nowMs - (nowNanos - first) / 1_000_000,
                "endEpochMs", nowMs - (nowNanos - last) / 1_000_000));
  }

  @Override
  public void close() {
    recordIngestWindow();
    try {
      if (probe != null) {
        probe.close();
      }
    } finally {
      if (steps != null) {
        steps.close();
      }
      builders.shutdownNow();
      workspaces.forEach(w -> w.bodies.close());
      client.close();
    }
  }

  @Override
  public String toString() {
    return "LogsComponents[" + settings + "]";
  }
}
