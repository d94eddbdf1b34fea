package io.fusillade.limit;

import io.fusillade.record.FlushListener;
import io.fusillade.record.Injected;
import io.fusillade.record.RunEvents;
import io.fusillade.record.RunStatus;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Runs a {@link LimitSearch} on the live run record: fed by the recorder's one-second flushes, it
 * counts each step's seconds, leaves its warm-up out, judges it when it ends and tells the {@link
 * Pace} the next rate, or that the search is over. Every step is an event of the run record
 * ({@value #STEP_EVENT} at its start, {@value #STEP_END_EVENT} with its verdict at its end), so a
 * run killed mid-search still shows the steps it judged.
 *
 * <p>The first step starts with the first second in which a request was sent: the run's record
 * opens before its users start. After a failed step, nothing is sent until its requests in flight
 * have finished (at most {@value #MAX_DRAIN_SECONDS} s): the next step starts clean.
 */
public final class LimitWatch implements FlushListener {
  /** The event at the start of a step: target {@code "<rate>/s"}, detail its number and phase. */
  public static final String STEP_EVENT = "limit-step";

  /** The event at the end of a step: target {@code "<rate>/s"}, detail its verdict. */
  public static final String STEP_END_EVENT = "limit-step-end";

  /** The event when the search is over: its one-sentence result. */
  public static final String RESULT_EVENT = "limit-result";

  /** The metric of the injector's own lag ({@code io.fusillade.health.InjectorLagMonitor}). */
  static final String INJECTOR_LAG = "injector.lag";

  /** The metric of how late the pacer handed out arrivals while a lane was free. */
  public static final String PACE_LAG = "injector.pace.lag";

  /** What the watch drives: the rate of arrivals. */
  public interface Pace {
    /** From now on, send {@code perSecond} requests a second. */
    void rate(double perSecond);

    /** Send nothing until the next {@link #rate}: requests in flight finish. */
    void pause();

    /** Whether no request is in flight (after a {@link #pause}). */
    boolean drained();

    /** The search is over: stop sending. */
    void finish();
  }

  /** The longest wait for a failed step's requests to finish before the next step starts. */
  static final int MAX_DRAIN_SECONDS = 30;

  private final LimitSettings settings;
  private final LimitSlo slo;
  private final LimitSearch search;
  private final RunEvents events;
  private final Pace pace;
  private final double injectorThresholdMs;
  private final Consumer<LimitResult> onDone;
  private boolean started;
  private boolean sentThisSecond;
  private int second; // seconds of the current step completed
  private double stepStart;
  private double lastElapsed;
  private StepStats stats;
  private LimitResult result;
  private double pending = Double.NaN; // the next rate, while a failed step's requests drain
  private int drainSeconds;

  /**
   * @param settings the search's settings
   * @param events where the steps are recorded (the run recorder)
   * @param pace what sends the load; its rate must already be {@code settings.from()}
   * @param injectorThresholdMs the injector lag p99 above which a step is the injector's
   * @param onDone receives the result once, on the flushing thread (when the search ends, or when
   *     the run closes first)
   */
  public LimitWatch(
      LimitSettings settings,
      RunEvents events,
      Pace pace,
      double injectorThresholdMs,
      Consumer<LimitResult> onDone) {
    this.settings = settings;
    this.slo = settings.objectives();
    this.search = new LimitSearch(settings);
    this.events = events;
    this.pace = pace;
    this.injectorThresholdMs = injectorThresholdMs;
    this.onDone = onDone;
  }

  /** The result, or null while the search runs. */
  public synchronized LimitResult result() {
    return result;
  }

  /**
   * The result, ending the search as {@link LimitResult.Verdict#STOPPED} when it is still under
   * way: for a run's finish hook, which runs before {@link #closed}.
   */
  public synchronized LimitResult endNow() {
    if (result == null) {
      end(search.stop());
    }
    return result;
  }

  /** The steps judged so far. */
  public synchronized java.util.List<StepResult> steps() {
    return search.steps();
  }

  private int stepLength() {
    return search.confirming() ? settings.confirmSeconds() : settings.stepSeconds();
  }

  private boolean judged() {
    return started && result == null && second >= settings.warmUpSeconds(stepLength());
  }

  @Override
  public synchronized void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    sentThisSecond |= sent > 0;
    if (judged() && !Injected.is(name)) { // failing on purpose says nothing of the capacity
      stats.request(ok, ko, errors);
    }
  }

  @Override
  public synchronized void metric(String name, Histogram interval) {
    if (judged() && (INJECTOR_LAG.equals(name) || PACE_LAG.equals(name))) {
      stats.injectorLag(name, interval);
    }
  }

  @Override
  public synchronized void gauge(String name, double value) {
    if (judged()) {
      stats.gauge(name, value);
    }
  }

  @Override
  public synchronized void intervalEnd(long epochMs, double elapsedSeconds) {
    double length = elapsedSeconds - lastElapsed;
    lastElapsed = elapsedSeconds;
    if (result != null) {
      return;
    }
    if (!started) {
      if (!sentThisSecond) {
        return;
      }
      started = true;
      begin(elapsedSeconds - length);
    } else if (!Double.isNaN(pending)) {
      if (pace.drained() || ++drainSeconds >= MAX_DRAIN_SECONDS) {
        pace.rate(pending);
        pending = Double.NaN;
        begin(elapsedSeconds);
      }
      sentThisSecond = false;
      return;
    }
    sentThisSecond = false;
    if (judged()) {
      stats.secondEnd(length);
    }
    if (++second < stepLength()) {
      return;
    }
    StepResult step =
        StepResult.judge(
            search.steps().size() + 1,
            search.phase(),
            stepStart,
            elapsedSeconds,
            stats.measure(),
            slo,
            search.steps());
    events.event(STEP_END_EVENT, target(step.target()), step.verdict());
    OptionalDouble next = search.next(step);
    if (next.isPresent() && !step.passed()) {
      // A failed step leaves requests queued (as many as the lanes): the next step starts when
      // they have finished, or it would be judged on this one's backlog.
      pace.pause();
      pending = next.getAsDouble();
      drainSeconds = 0;
    } else if (next.isPresent()) {
      pace.rate(next.getAsDouble());
      begin(elapsedSeconds);
    } else {
      end(search.result());
      pace.finish();
    }
  }

  @Override
  public synchronized void closed(RunStatus status) {
    if (result == null) {
      end(search.stop());
    }
  }

  private void begin(double at) {
    second = 0;
    stepStart = at;
    stats = new StepStats(search.rate(), injectorThresholdMs);
    events.event(
        STEP_EVENT,
        target(search.rate()),
        "step " + (search.steps().size() + 1) + " (" + search.phase() + ")");
  }

  private void end(LimitResult done) {
    result = done;
    events.event(RESULT_EVENT, done.verdict().jsonName(), done.describe());
    onDone.accept(done);
  }

  private static String target(double rate) {
    return StepResult.number(rate) + "/s";
  }
}
