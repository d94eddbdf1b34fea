package io.fusillade.system;

import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts the lines of servers' log files that match named patterns ({@link LogWatch}), as gauges
 * {@code server.<name>.log.<pattern>}: the lines matched since the recorder's last flush (a second,
 * by default). Each file is read from where it ended when the run started (what the server logged
 * before is not this run's), every {@value #POLL_MILLIS} ms on a thread of its own; a file cut
 * shorter (a rotation) is read again from its start, a file not there yet is waited for.
 *
 * <p>At the end, {@code health.logs} of {@code run.json} holds each pattern's total over the run,
 * the number the per-level tables and the checks ({@code server log warning < 10}) rest on.
 */
public final class LogCounter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LogCounter.class);

  /** The health entry of {@code run.json}. */
  public static final String HEALTH_KEY = "logs";

  static final long POLL_MILLIS = 200;

  private final ScheduledExecutorService timer;
  private final List<Source> sources = new ArrayList<>();

  /** One file: where it was read to, the line begun but not ended, the counts. */
  private static final class Source {
    final LogWatch watch;
    final Map<String, AtomicLong> sinceRead = new LinkedHashMap<>();
    final Map<String, AtomicLong> total = new LinkedHashMap<>();
    long position = -1; // -1: not opened yet
    final StringBuilder partial = new StringBuilder();
    String error;

    Source(LogWatch watch) {
      this.watch = watch;
      for (String pattern : watch.patterns().keySet()) {
        sinceRead.put(pattern, new AtomicLong());
        total.put(pattern, new AtomicLong());
      }
      try {
        position = Files.exists(watch.file()) ? Files.size(watch.file()) : 0;
      } catch (IOException e) {
        position = 0;
      }
    }

    /** Reads what was appended since the last poll and counts its whole lines. */
    synchronized void poll() {
      try (RandomAccessFile file = new RandomAccessFile(watch.file().toFile(), "r")) {
        long length = file.length();
        if (length < position) {
          position = 0; // rotated or truncated: the new file from its start
          partial.setLength(0);
        }
        if (length == position) {
          return;
        }
        file.seek(position);
        byte[] bytes = new byte[(int) Math.min(length - position, 4 << 20)];
        file.readFully(bytes);
        position += bytes.length;
        partial.append(new String(bytes, StandardCharsets.UTF_8));
        int start = 0;
        for (int end; (end = partial.indexOf("\n", start)) >= 0; start = end + 1) {
          count(partial.substring(start, end));
        }
        partial.delete(0, start);
        error = null;
      } catch (java.io.FileNotFoundException e) {
        position = 0; // not there yet (or rotated away): counted from its start when it is
      } catch (IOException e) {
        if (error == null) {
          LOG.warn("Cannot read the log {}: {}", watch.file(), e.toString());
        }
        error = e.toString();
      }
    }

    private void count(String line) {
      for (Map.Entry<String, Pattern> p : watch.patterns().entrySet()) {
        if (p.getValue().matcher(line).find()) {
          sinceRead.get(p.getKey()).incrementAndGet();
          total.get(p.getKey()).incrementAndGet();
        }
      }
    }

    /**
     * The lines of {@code pattern} since the previous call: the recorder reads its gauges once a
     * flush (a second), so each second holds its own lines and their sum is the run's.
     */
    double sinceLastRead(String pattern) {
      return sinceRead.get(pattern).getAndSet(0);
    }
  }

  private LogCounter(List<LogWatch> watches) {
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "fusillade-log-counter");
              t.setDaemon(true);
              return t;
            });
    watches.forEach(w -> sources.add(new Source(w)));
  }

  /**
   * Starts counting: each file is read from its current end. The gauges and {@code health.logs} go
   * into {@code run}; nothing starts for no source.
   *
   * @param run the run record
   * @param watches the log files and their patterns
   * @return the counter, closed by the run's end
   */
  public static LogCounter install(RunRecorder run, List<LogWatch> watches) {
    LogCounter counter = new LogCounter(watches);
    if (watches.isEmpty()) {
      return counter;
    }
    for (Source s : counter.sources) {
      for (String pattern : s.watch.patterns().keySet()) {
        run.gauge(
            s.watch.gauge(pattern),
            () -> {
              s.poll(); // what the server wrote up to this second counts in it
              return s.sinceLastRead(pattern);
            });
      }
    }
    counter.timer.scheduleWithFixedDelay(
        counter::pollAll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    run.onFinish(
        () -> {
          counter.close();
          run.health(HEALTH_KEY, counter.totals());
        });
    return counter;
  }

  /** Starts counting without a run record (tests, tools); read with {@link #totals()}. */
  public static LogCounter start(List<LogWatch> watches) {
    LogCounter counter = new LogCounter(watches);
    counter.timer.scheduleWithFixedDelay(
        counter::pollAll, POLL_MILLIS, POLL_MILLIS, TimeUnit.MILLISECONDS);
    return counter;
  }

  private void pollAll() {
    sources.forEach(Source::poll);
  }

  /** The lines counted so far, per source and pattern, and the file's path: {@code health.logs}. */
  public Map<String, Object> totals() {
    pollAll();
    Map<String, Object> all = new LinkedHashMap<>();
    for (Source s : sources) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("file", s.watch.file().toString());
      Map<String, Long> counts = new LinkedHashMap<>();
      s.total.forEach((pattern, n) -> counts.put(pattern, n.get()));
      one.put("lines", counts);
      if (s.error != null) {
        one.put("lastError", s.error);
      }
      all.put(s.watch.name(), one);
    }
    return all;
  }

  /** Stops reading; the gauges then count what was read last. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
