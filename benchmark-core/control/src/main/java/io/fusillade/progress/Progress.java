package io.fusillade.progress;

import io.fusillade.FusilladeException;
import java.io.Console;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Progress of one long piece of work (filling a table, creating an index, a limit search): done
 * units, units/s, % done and ETA when the total is known, elapsed time otherwise.
 *
 * <p>Nothing is printed while the work is younger than {@link Settings#quiet()} (2 s): short work
 * shows only its summary line. After that, on a terminal ({@link Mode#TTY}) one line is redrawn in
 * place with {@code \r} four times a second; without a terminal ({@link Mode#PLAIN}, CI logs) one
 * plain line is printed every {@link Settings#plainInterval()} (10 s), so a log stays readable; in
 * {@link Mode#NONE} nothing. {@link #close()} ends the line and prints the summary line ({@code
 * "filled cars: 1,000,000 rows in 4.2 s, 238,095 rows/s"}) in every mode: it is the command's
 * result, not progress.
 *
 * <p>Use:
 *
 * <pre>{@code
 * try (Progress progress = Progress.of("filling cars", out, settings).total(rows, "rows")
 *     .summary("filled cars").start()) {
 *   ... progress.add(batch);   // from any thread
 * }
 * }</pre>
 *
 * <p>{@link #add(long)} is thread-safe and cheap (one atomic add): a background daemon thread, not
 * the caller, draws the line, so work that never calls {@code add} (one {@code CREATE INDEX}
 * statement) still shows its elapsed time. While a progress is open, the caller must not print to
 * the same writer (it would land in the middle of the redrawn line).
 *
 * <p>A limit search (many steps, each a short run) uses one progress with the total number of steps
 * as its total and {@code "steps"} as its unit, calling {@code add(1)} per finished step.
 */
public final class Progress implements AutoCloseable {
  /** How a terminal line is refreshed: at most four times a second. */
  static final long TTY_REFRESH_NANOS = 250_000_000L;

  /** Where progress goes: chosen by {@code --progress} or {@code FUSILLADE_PROGRESS}. */
  public enum Mode {
    /** {@link #TTY} when stdin and stdout are a terminal, {@link #PLAIN} otherwise. */
    AUTO,
    /** One line redrawn in place. */
    TTY,
    /** One line every {@link Settings#plainInterval()}. */
    PLAIN,
    /** No progress lines, only the summary. */
    NONE;

    /**
     * {@code auto}, {@code tty}, {@code plain} or {@code none}, in any case.
     *
     * @param where what to name in the error (the option or the variable)
     * @throws FusilladeException naming {@code where} for any other text
     */
    public static Mode parse(String text, String where) {
      for (Mode mode : values()) {
        if (mode.name().equalsIgnoreCase(text.strip())) {
          return mode;
        }
      }
      throw new FusilladeException(
          where + " must be auto, tty, plain or none, not \"" + text + "\"");
    }

    /** This mode with {@link #AUTO} replaced by what the terminal says. */
    public Mode resolve() {
      return this == AUTO ? (isTerminal() ? TTY : PLAIN) : this;
    }
  }

  /**
   * How progress is shown.
   *
   * @param mode where it goes
   * @param quiet how long work runs before any progress line (short work shows none)
   * @param plainInterval the time between two lines in {@link Mode#PLAIN}
   */
  public record Settings(Mode mode, Duration quiet, Duration plainInterval) {
    /** The environment variable that chooses the mode when no option does. */
    public static final String VARIABLE = "FUSILLADE_PROGRESS";

    /**
     * The system property that shortens the plain interval (and the quiet time with it), in
     * milliseconds: for tests that cannot wait 10 s.
     */
    public static final String INTERVAL_PROPERTY = "fusillade.progress.interval";

    /** The defaults: 2 s of quiet, a plain line every 10 s. */
    public static Settings of(Mode mode) {
      return new Settings(mode, Duration.ofSeconds(2), Duration.ofSeconds(10));
    }

    /**
     * The settings for a command: {@code option} (the {@code --progress} value, may be null), else
     * {@code FUSILLADE_PROGRESS}, else {@link Mode#AUTO}; the interval from {@link
     * #INTERVAL_PROPERTY} when set.
     */
    public static Settings resolve(String option, Map<String, String> environment) {
      Mode mode;
      if (option != null) {
        mode = Mode.parse(option, "--progress");
      } else if (environment.get(VARIABLE) != null && !environment.get(VARIABLE).isBlank()) {
        mode = Mode.parse(environment.get(VARIABLE), VARIABLE);
      } else {
        mode = Mode.AUTO;
      }
      Settings settings = of(mode.resolve());
      String interval = System.getProperty(INTERVAL_PROPERTY);
      if (interval != null) {
        Duration plain = Duration.ofMillis(Long.parseLong(interval.strip()));
        Duration quiet = plain.compareTo(settings.quiet) < 0 ? plain : settings.quiet;
        settings = new Settings(settings.mode, quiet, plain);
      }
      return settings;
    }
  }

  private final String task;
  private final PrintWriter out;
  private final Settings settings;
  private final Mode mode;
  private final LongSupplier clock;
  private final AtomicLong done = new AtomicLong();
  private long total = -1;
  private String unit = "";
  private String summary;
  private long start;
  private long lastPrint;
  private boolean printed;
  private int lineLength;
  private boolean closed;
  private ScheduledExecutorService ticker;

  private Progress(String task, PrintWriter out, Settings settings, LongSupplier clock) {
    this.task = task;
    this.out = out;
    this.settings = settings;
    this.mode = settings.mode().resolve();
    this.clock = clock;
    this.summary = task;
  }

  /** A progress for {@code task} (its lines start with it: {@code "filling cars"}); not started. */
  public static Progress of(String task, PrintWriter out, Settings settings) {
    return new Progress(task, out, settings, System::nanoTime);
  }

  /** The same with a clock in nanoseconds, for tests; {@link #tick()} draws instead of a thread. */
  static Progress of(String task, PrintWriter out, Settings settings, LongSupplier clock) {
    return new Progress(task, out, settings, clock);
  }

  /** The units to do, and their name ({@code "rows"}): gives % done and the ETA. */
  public Progress total(long total, String unit) {
    this.total = total;
    this.unit = unit;
    return this;
  }

  /** The units' name when there is no total. */
  public Progress unit(String unit) {
    this.unit = unit;
    return this;
  }

  /** What the summary line starts with ({@code "filled cars"}); the task by default. */
  public Progress summary(String summary) {
    this.summary = summary;
    return this;
  }

  /** Starts the clock and the thread that draws the line. */
  public Progress start() {
    startClock();
    if (mode != Mode.NONE) {
      ticker =
          Executors.newSingleThreadScheduledExecutor(
              r -> {
                Thread thread = new Thread(r, "fusillade-progress");
                thread.setDaemon(true);
                return thread;
              });
      ticker.scheduleAtFixedRate(this::tick, 100, 100, TimeUnit.MILLISECONDS);
    }
    return this;
  }

  /** Starts the clock only: the tests' {@link #tick()} draws. */
  Progress startClock() {
    start = clock.getAsLong();
    lastPrint = start;
    return this;
  }

  /** Adds {@code n} done units; from any thread. */
  public void add(long n) {
    done.addAndGet(n);
  }

  /** The done units so far. */
  public long done() {
    return done.get();
  }

  /** Draws the line if it is time to: called by the thread, and by tests. */
  synchronized void tick() {
    if (closed || mode == Mode.NONE) {
      return;
    }
    long now = clock.getAsLong();
    if (now - start < settings.quiet().toNanos()) {
      return;
    }
    if (mode == Mode.TTY) {
      if (printed && now - lastPrint < TTY_REFRESH_NANOS) {
        return;
      }
      String line = line(now);
      // Pad with spaces over the rest of a longer previous line.
      out.print("\r" + line + " ".repeat(Math.max(0, lineLength - line.length())));
      lineLength = line.length();
    } else {
      // The first plain line comes after the quiet time, the next ones every interval.
      if (printed && now - lastPrint < settings.plainInterval().toNanos()) {
        return;
      }
      out.println(line(now));
    }
    out.flush();
    printed = true;
    lastPrint = now;
  }

  /** The progress line at {@code now}. */
  String line(long now) {
    long count = done.get();
    double seconds = (now - start) / 1e9;
    StringBuilder line = new StringBuilder(task).append(": ");
    if (total >= 0) {
      double rate = count / Math.max(seconds, 1e-9);
      line.append(String.format(Locale.ROOT, "%,d of %,d %s", count, total, unit));
      line.append(
          String.format(
              Locale.ROOT,
              " (%.1f%%)",
              total == 0 ? 100.0 : Math.min(100.0, 100.0 * count / total)));
      line.append(String.format(Locale.ROOT, ", %,.0f %s/s", rate, unit));
      line.append(", ETA ");
      line.append(count > 0 ? duration((total - Math.min(count, total)) / rate) : "?");
    } else if (!unit.isEmpty()) {
      line.append(
          String.format(
              Locale.ROOT,
              "%,d %s, %,.0f %s/s",
              count,
              unit,
              count / Math.max(seconds, 1e-9),
              unit));
    } else {
      line.append("running");
    }
    line.append(", ").append(duration(seconds)).append(" elapsed");
    return line.toString();
  }

  /** {@code 42 s}, {@code 3 min 05 s}, {@code 1 h 02 min}. */
  static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return s + " s";
    }
    if (s < 3600) {
      return String.format(Locale.ROOT, "%d min %02d s", s / 60, s % 60);
    }
    return String.format(Locale.ROOT, "%d h %02d min", s / 3600, s % 3600 / 60);
  }

  /** The summary line for the work so far. */
  String summaryLine(long now) {
    double seconds = (now - start) / 1e9;
    if (unit.isEmpty()) {
      return String.format(Locale.ROOT, "%s in %.1f s", summary, seconds);
    }
    long count = done.get();
    return String.format(
        Locale.ROOT,
        "%s: %,d %s in %.1f s, %,.0f %s/s",
        summary,
        count,
        unit,
        seconds,
        count / Math.max(seconds, 1e-9),
        unit);
  }

  /**
   * Stops the thread, ends the terminal line and prints the summary line. Call it only when the
   * work succeeded; on failure call {@link #abandon()} (in a {@code finally}, close after abandon
   * prints nothing).
   */
  @Override
  public void close() {
    finish(true);
  }

  /** Stops the thread and clears the terminal line without a summary: the work failed. */
  public void abandon() {
    finish(false);
  }

  private void finish(boolean withSummary) {
    if (ticker != null) {
      ticker.shutdownNow();
      try {
        ticker.awaitTermination(1, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      if (mode == Mode.TTY && printed) {
        out.print("\r" + " ".repeat(lineLength) + "\r");
      }
      if (withSummary) {
        out.println(summaryLine(clock.getAsLong()));
      }
      out.flush();
    }
  }

  /**
   * Whether stdin and stdout are a terminal. {@code System.console()} alone says so up to Java 21;
   * from Java 22 it returns a console even when redirected, and {@code Console.isTerminal()} (22+,
   * called by reflection so that this compiles for 17) tells.
   */
  public static boolean isTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true; // Java 17 to 21: a console is a terminal.
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }
}
