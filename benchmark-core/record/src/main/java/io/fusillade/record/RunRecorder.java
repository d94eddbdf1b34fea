package io.fusillade.record;

import io.fusillade.FusilladeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object every protocol reports to, and the writer of the run record.
 *
 * <p>For each request it keeps an HdrHistogram per name and status (latency from intended start to
 * end), and once a second it writes what happened in that second to the run directory: the
 * histograms' intervals to {@code latency.hlog}, counts to {@code counters.jsonl}. {@code run.json}
 * is written when the run opens and again when it closes. A run that is killed therefore leaves a
 * record covering every second until the last flush.
 *
 * <p>Recording is thread-safe and does not allocate or lock on the hot path: look a {@link
 * RequestChannel} up once with {@link #request(String)} and call it from any thread. The cost of a
 * record does not depend on how long the run has lasted; memory is fixed per request name.
 *
 * <p>When a file of the record cannot be written (a full disk), the recorder stops writing at once
 * and says so in one line, naming the file, the system's reason and the second the run stopped at;
 * the run is closed as {@link RunStatus#FAILED} with that reason (in {@code run.json} when it can
 * still be written), and what was written before stays readable. Whoever drives the load stops it
 * when told by {@link #onWriteFailure(Consumer)}.
 *
 * <pre>{@code
 * try (RunRecorder run = RunRecorder.open(RunOptions.of("my-test"))) {
 *   RequestChannel lookups = run.request("lookup");
 *   long due = System.nanoTime();
 *   ... send the request ...
 *   lookups.ok(due, System.nanoTime());
 * }
 * }</pre>
 *
 * <p>Why one class of about 600 lines: it is the record's one writer and its one lock-free hot path
 * (record, count, gauge), and its flush, events, health and close all write the same files under
 * the same state; split, each part would need that state handed across classes, and the writer's
 * invariants (one flush at a time, a closed record written once) would span them.
 */
public final class RunRecorder implements AutoCloseable, RunEvents {
  private static final Logger LOG = LoggerFactory.getLogger(RunRecorder.class);

  /**
   * The reason of a run closed as {@link RunStatus#COMPLETED} in which no request was sent or
   * recorded: it measured nothing, so it is {@link RunStatus#FAILED}.
   */
  public static final String NO_REQUEST = "no request was sent";

  /** The reason of a run still open when the JVM shut down (a signal, {@code System.exit}). */
  public static final String ABORTED_BY_SHUTDOWN = "the JVM shut down before the run ended";

  private static final DateTimeFormatter DIRECTORY_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private static volatile Path lastOpened; // the directory of the last run opened in this JVM

  private final RunOptions options;
  private final Path directory;
  private final String runId;
  private final long startEpochMs;
  private final InjectorInfo injector = InjectorInfo.current();

  private final ConcurrentHashMap<String, RequestChannel> requests = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LatencyMetric> metrics = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();
  private final Map<String, DoubleSupplier> gauges = new ConcurrentHashMap<>();
  private final Map<String, Object> health = Collections.synchronizedMap(new LinkedHashMap<>());
  private final List<String> flags = new CopyOnWriteArrayList<>();
  private final List<String> checks = new CopyOnWriteArrayList<>();
  private final Map<String, Object> extraParameters =
      Collections.synchronizedMap(new LinkedHashMap<>());
  private final List<Runnable> finishHooks = new CopyOnWriteArrayList<>();
  private final List<Consumer<String>> writeFailureListeners = new CopyOnWriteArrayList<>();
  private String writeFailure; // guarded by this: why the record stopped being written, or null
  private final FlushListeners listeners = new FlushListeners();

  private final IntervalWriter writer;
  private final EventWriter events;
  private final ScheduledExecutorService flusher;
  private final Thread shutdownHook;
  private RunStatus finalStatus; // guarded by this
  private String finalReason; // guarded by this
  private final Object closing = new Object();
  private Long lastEndEpochMs; // guarded by this: the end written when the run closed

  private RunRecorder(RunOptions options) throws IOException {
    this(options, null);
  }

  /**
   * @param runDirectory the run directory, already created (tests that prepare its files), or null
   *     to create a new one under the base directory
   */
  private RunRecorder(RunOptions options, Path runDirectory) throws IOException {
    this.options = options;
    this.startEpochMs = System.currentTimeMillis();
    this.directory =
        runDirectory != null ? runDirectory : createRunDirectory(options, startEpochMs);
    this.runId = directory.getFileName().toString();
    lastOpened = directory;
    this.writer = new IntervalWriter(directory, startEpochMs, listeners);
    this.events = new EventWriter(directory);
    writeManifest(RunStatus.RUNNING, null, null);
    reserveSpace();
    this.flusher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "fusillade-recorder");
              thread.setDaemon(true);
              return thread;
            });
    long period = options.flushInterval().toNanos();
    flusher.scheduleAtFixedRate(this::flushQuietly, period, period, TimeUnit.NANOSECONDS);
    this.shutdownHook =
        new Thread(
            () -> close(RunStatus.ABORTED, ABORTED_BY_SHUTDOWN), "fusillade-recorder-shutdown");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /**
   * Creates the run directory under {@link RunOptions#baseDirectory()}, writes {@code run.json}
   * with status {@code running} and starts flushing every {@link RunOptions#flushInterval()}.
   *
   * @throws FusilladeException when the directory cannot be created or written
   */
  public static RunRecorder open(RunOptions options) {
    return open(options, null);
  }

  /**
   * Opens a run in a directory that already exists: for tests that put a file of their own there
   * first (a symbolic link to {@code /dev/full}, which fails every write as a full disk does).
   */
  static RunRecorder openIn(Path runDirectory, RunOptions options) {
    return open(options, runDirectory);
  }

  private static RunRecorder open(RunOptions options, Path runDirectory) {
    try {
      return new RunRecorder(options, runDirectory);
    } catch (RecordWriteException e) {
      throw new FusilladeException("cannot write the run record: " + e.getMessage(), e);
    } catch (IOException | UncheckedIOException e) {
      throw new FusilladeException(
          "cannot write the run record under "
              + options.baseDirectory().toAbsolutePath()
              + ": "
              + e,
          e);
    }
  }

  private static Path createRunDirectory(RunOptions options, long startEpochMs) throws IOException {
    Files.createDirectories(options.baseDirectory());
    String stem =
        options.shortName()
            + "-"
            + DIRECTORY_TIME.format(java.time.Instant.ofEpochMilli(startEpochMs));
    for (int attempt = 1; ; attempt++) {
      Path candidate = options.baseDirectory().resolve(attempt == 1 ? stem : stem + "-" + attempt);
      try {
        return Files.createDirectory(candidate);
      } catch (FileAlreadyExistsException taken) {
        // another run started in the same second: take the next suffix
      }
    }
  }

  /**
   * The directory of the last run opened in this JVM (one Gatling run per JVM: its record), for
   * what must follow the run there, such as its log file; empty before any.
   */
  public static java.util.Optional<Path> lastOpenedDirectory() {
    return java.util.Optional.ofNullable(lastOpened);
  }

  /**
   * The space kept for the closing {@code run.json}: a file of {@value #RESERVE_BYTES} bytes,
   * deleted just before that write. On a disk that fills during the run, it is what lets the record
   * end saying why ({@code failed}, with the full disk) rather than {@code running}, which readers
   * take for a killed run.
   */
  static final String RESERVE = RunFiles.MANIFEST + ".reserve";

  /** The size of {@link #RESERVE}: room for a closing {@code run.json} of many topics or nodes. */
  static final int RESERVE_BYTES = 128 * 1024;

  private void reserveSpace() {
    try {
      Files.write(directory.resolve(RESERVE), new byte[RESERVE_BYTES]);
    } catch (IOException e) {
      // the disk is full already: the record's own first flush will say so
      releaseReserve();
    }
  }

  private void releaseReserve() {
    try {
      Files.deleteIfExists(directory.resolve(RESERVE));
    } catch (IOException e) {
      LOG.debug("Could not delete {}: {}", directory.resolve(RESERVE), e.toString());
    }
  }

  /** The run directory. */
  public Path directory() {
    return directory;
  }

  /** The run's id: the run directory's name. */
  public String runId() {
    return runId;
  }

  /** Wall-clock time the run opened, in epoch milliseconds. */
  public long startEpochMs() {
    return startEpochMs;
  }

  /**
   * The channel for requests of this name, created on first use. Keep it; it never changes. An
   * {@link Untimed} name gets a channel of its own that is never flushed: its requests are kept
   * nowhere.
   */
  public RequestChannel request(String name) {
    if (Untimed.is(name)) {
      return new RequestChannel(name);
    }
    RequestChannel channel = requests.get(name);
    return channel != null ? channel : requests.computeIfAbsent(name, RequestChannel::new);
  }

  /**
   * Records one request. Shorthand for {@code request(name).record(...)}, at the cost of a map
   * look-up.
   */
  public void record(
      String name, long intendedStartNanos, long endNanos, Status status, String reason) {
    request(name).record(intendedStartNanos, endNanos, status, reason);
  }

  /** A latency-like metric that is not a request (injector lag, end-to-end latency). */
  public LatencyMetric metric(String name) {
    LatencyMetric metric = metrics.get(name);
    return metric != null ? metric : metrics.computeIfAbsent(name, LatencyMetric::new);
  }

  /** A monotonic counter whose per-second increase is recorded. */
  public Counter counter(String name) {
    Counter counter = counters.get(name);
    return counter != null ? counter : counters.computeIfAbsent(name, Counter::new);
  }

  /** A value sampled once per second (consumer lag, pool usage). Replaces a gauge of that name. */
  public void gauge(String name, DoubleSupplier supplier) {
    gauges.put(name, supplier);
  }

  /**
   * Feeds {@code listener} every interval the recorder flushes from now on, and the run's end: see
   * {@link FlushListener}. This adds no work per request.
   */
  public void listen(FlushListener listener) {
    listeners.add(listener);
  }

  /** Adds a parameter to {@code run.json}, for values known only once the run has started. */
  public void parameter(String name, Object value) {
    extraParameters.put(name, value);
  }

  /** Sets a health entry of {@code run.json} (for example the injector lag verdict). */
  public void health(String name, Object value) {
    health.put(name, value);
  }

  /** Adds a warning that readers must show beside the results, in {@code run.json}. */
  public void flag(String warning) {
    if (!flags.contains(warning)) {
      flags.add(warning);
    }
  }

  /**
   * Records an event ({@link RunEvent}) at the current time in {@value RunFiles#EVENTS}, written
   * through at once. Events after the run closed are dropped. A write that fails is logged, not
   * thrown: the component reporting it is on its own failure path already.
   */
  @Override
  public void event(String kind, String target, String detail) {
    RunEvent event = new RunEvent(System.currentTimeMillis(), kind, target, detail);
    LOG.info("{} {}{}", kind, target, event.detail().isEmpty() ? "" : ": " + event.detail());
    try {
      events.write(event);
    } catch (IOException e) {
      LOG.warn("Could not write an event to the run record in {}: {}", directory, e.toString());
    }
  }

  /**
   * Declares a check (an SLO such as {@code "p99 < 50ms"}) in {@code run.json}; the reports
   * evaluate it ({@code fusillade report}). The text is not validated here.
   */
  public void check(String check) {
    if (!checks.contains(check)) {
      checks.add(check);
    }
  }

  /**
   * Runs {@code hook} when the run closes, after the last flush and before the final {@code
   * run.json} is written: the place for verdicts computed from whole-run totals.
   */
  public void onFinish(Runnable hook) {
    finishHooks.add(hook);
  }

  /**
   * The whole-run histogram of a metric, as flushed so far (a copy), or an empty one. Within a
   * finish hook it covers the whole run.
   */
  public Histogram metricTotal(String name) {
    synchronized (this) {
      Histogram total = writer.total(Tags.metric(name));
      return total != null ? total : Latencies.newHistogram();
    }
  }

  /**
   * Writes everything recorded so far. Called every second; callers rarely need it. When the record
   * cannot be written, recording stops: see {@link #onWriteFailure(Consumer)}.
   */
  public void flush() {
    RecordWriteException failure;
    synchronized (this) {
      if (finalStatus != null || writeFailure != null) {
        return;
      }
      try {
        writer.flush(requests.values(), metrics.values(), counters.values(), gauges);
        return;
      } catch (RecordWriteException e) {
        failure = e;
      }
    }
    writeFailed(failure, true);
  }

  private void flushQuietly() {
    try {
      flush();
    } catch (RuntimeException e) {
      // Not a failed write (those stop the recording): the next second tries again.
      LOG.warn("Could not write the run record in {}: {}", directory, e.toString());
    }
  }

  /**
   * Calls {@code listener} once, from the recorder's thread, when a file of the record cannot be
   * written (a full disk): recording has stopped, and the run should stop too. Its argument is the
   * reason the run will be closed with: {@code cannot write DIR/counters.jsonl: No space left on
   * device; the run stopped at 42 s}.
   */
  public void onWriteFailure(Consumer<String> listener) {
    writeFailureListeners.add(listener);
  }

  /**
   * Why the record could not be written (see {@link #onWriteFailure(Consumer)}), or null when it
   * could.
   */
  public synchronized String writeFailure() {
    return writeFailure;
  }

  /**
   * Stops recording after a failed write: the first failure is logged once, in one line, and is the
   * reason the run closes with; later seconds are not written (a full disk would otherwise log an
   * error a second, and write lines with holes).
   */
  private void writeFailed(RecordWriteException failure, boolean notify) {
    String reason;
    synchronized (this) {
      if (writeFailure != null) {
        return;
      }
      long seconds = (System.currentTimeMillis() - startEpochMs) / 1000;
      reason = failure.getMessage() + "; the run stopped at " + seconds + " s";
      writeFailure = reason;
    }
    flusher.shutdown(); // no later flush; the one running (maybe this one) ends normally
    LOG.error("Fusillade run record: {} (the seconds before it are kept)", reason);
    if (!notify) {
      return;
    }
    for (Consumer<String> listener : writeFailureListeners) {
      try {
        listener.accept(reason);
      } catch (RuntimeException e) {
        LOG.warn("A run-record write failure listener failed: {}", e.toString());
      }
    }
  }

  /**
   * Ends the run as {@link RunStatus#COMPLETED}, or as {@link RunStatus#FAILED} with the reason
   * {@value #NO_REQUEST} when no request was sent or recorded: a run that measured nothing must not
   * pass.
   */
  @Override
  public void close() {
    close(RunStatus.COMPLETED, null);
  }

  /** Ends the run with the given status and no reason: see {@link #close(RunStatus, String)}. */
  public void close(RunStatus status) {
    close(status, null);
  }

  /**
   * Ends the run: a last flush, the finish hooks, the final {@code run.json} with the given status
   * and, when not null, its reason ({@code statusReason}: why a run failed or was aborted, in one
   * line). A run closed as {@link RunStatus#COMPLETED} in which no request was sent or recorded is
   * written as {@link RunStatus#FAILED}, reason {@value #NO_REQUEST}. Only the first call counts:
   * later calls wait until it is done, then do nothing.
   *
   * @param status how the run ended
   * @param reason why, or null
   */
  public void close(RunStatus status, String reason) {
    // A second caller (the shutdown hook racing the end of the run) waits until the record is
    // closed, so that whatever it does next reads the final run.json.
    synchronized (closing) {
      closeOnce(status, reason);
    }
  }

  private void closeOnce(RunStatus status, String reason) {
    RunStatus written = status;
    String why = reason;
    RecordWriteException lastFlushFailure = null;
    synchronized (this) {
      if (finalStatus != null) {
        return;
      }
      flusher.shutdownNow();
      if (writeFailure == null) {
        try {
          writer.flush(requests.values(), metrics.values(), counters.values(), gauges);
        } catch (RecordWriteException e) {
          lastFlushFailure = e;
        } catch (RuntimeException e) {
          LOG.warn("Could not write the last second of the run record: {}", e.toString());
        }
      }
    }
    if (lastFlushFailure != null) {
      writeFailed(lastFlushFailure, false); // the run is ending anyway: nobody to stop
    }
    synchronized (this) {
      if (writeFailure != null) {
        // The record is incomplete from that second on, whatever else happened.
        written = RunStatus.FAILED;
        why = writeFailure;
      } else if (written == RunStatus.COMPLETED && !anyRequest()) {
        written = RunStatus.FAILED;
        why = NO_REQUEST;
      }
      finalStatus = written;
      finalReason = why;
    }
    for (Runnable hook : finishHooks) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        LOG.warn("A run-record finish hook failed: {}", e.toString());
      }
    }
    synchronized (this) {
      lastEndEpochMs = System.currentTimeMillis();
      releaseReserve(); // its room is this write's
      writeFinalManifest(written, why, lastEndEpochMs);
      try {
        writer.close();
      } catch (RuntimeException e) {
        if (writeFailure == null) {
          LOG.error("Fusillade run record: {}", e.getMessage());
        } // else: the same failure, already said
      }
      events.close();
    }
    listeners.closed(written);
    if (Thread.currentThread() != shutdownHook) {
      try {
        Runtime.getRuntime().removeShutdownHook(shutdownHook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is already exiting: the hook will find the run closed
      }
    }
  }

  /**
   * Marks a run that closed as {@link RunStatus#COMPLETED} as {@link RunStatus#FAILED}, rewriting
   * {@code run.json}: for a crash learned only after the run was closed (Gatling ends the run, then
   * its main thread dies of the error that crashed it). Does nothing while the run is open (close
   * it with {@link #close(RunStatus, String)}) or when it did not complete.
   *
   * @param reason why, in one line
   */
  public void failAfterClose(String reason) {
    synchronized (closing) {
      synchronized (this) {
        if (finalStatus != RunStatus.COMPLETED) {
          return;
        }
        finalStatus = RunStatus.FAILED;
        finalReason = reason;
        writeFinalManifest(RunStatus.FAILED, reason, lastEndEpochMs);
      }
    }
  }

  /**
   * How the run ended, as written in {@code run.json}: {@link RunStatus#RUNNING} until it is
   * closed.
   */
  public synchronized RunStatus status() {
    return finalStatus == null ? RunStatus.RUNNING : finalStatus;
  }

  /**
   * Why the run ended as it did ({@link #status()}), or null: still running, or no reason given.
   */
  public synchronized String statusReason() {
    return finalReason;
  }

  /** Whether any request was sent or recorded, including in the last flush. */
  private boolean anyRequest() {
    for (RequestChannel channel : requests.values()) {
      if (channel.sentTotal() > 0) {
        return true;
      }
    }
    return writer.anyRequest();
  }

  /**
   * Writes the closing {@code run.json}, or says in one line that it cannot (a full disk): the
   * record then keeps the one written at the start, status {@code running}, which readers show as a
   * run that did not end.
   */
  private void writeFinalManifest(RunStatus status, String reason, Long endEpochMs) {
    try {
      writeManifest(status, reason, endEpochMs);
    } catch (UncheckedIOException e) {
      LOG.error(
          "Fusillade run record: {}: {} (it still says running)",
          e.getMessage(),
          RecordWriteException.reason(e.getCause()));
    }
  }

  private void writeManifest(RunStatus status, String reason, Long endEpochMs) {
    RunOptions written = options;
    List<String> flagList;
    Map<String, Object> healthCopy;
    synchronized (extraParameters) {
      written = options.withParameters(new LinkedHashMap<>(extraParameters));
    }
    synchronized (health) {
      healthCopy = new LinkedHashMap<>(health);
    }
    flagList = new ArrayList<>(flags);
    ManifestWriter.write(
        directory,
        runId,
        written,
        status,
        reason,
        startEpochMs,
        endEpochMs,
        healthCopy,
        flagList,
        new ArrayList<>(checks),
        injector);
  }
}
