package io.fusillade.limit;

import io.fusillade.record.FlushListener;
import io.fusillade.record.Injected;
import io.fusillade.record.Latencies;
import io.fusillade.record.RunEvents;
import io.fusillade.record.RunStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Runs an {@link AdaptiveController} on the live run record: fed by the recorder's one-second
 * flushes, it keeps the last {@code window} seconds, judges them every second against the
 * objectives exactly as a limit search judges a step ({@link StepStats}, {@link LimitSlo}, the
 * injector's lag and its own failures), tells the {@link LimitWatch.Pace} the controller's next
 * rate, and adds the second to the {@link AdaptiveCurve}. After {@code duration} it stops the load.
 *
 * <p>The run starts with the first second in which a request was sent (the record opens before the
 * users start). A window the injector cannot vouch for is an event ({@value #INJECTOR_EVENT}), so
 * that the record says when the injector, not the system, held the rate.
 */
public final class AdaptiveWatch implements FlushListener {
  /** The event when the injector could not vouch for a window: the rate held or capped. */
  public static final String INJECTOR_EVENT = "adaptive-injector";

  /** The event at the end: the settled rate. */
  public static final String RESULT_EVENT = "adaptive-result";

  /** One flushed second's figures, kept while it is in the window. */
  private static final class Second {
    final double rate;
    final Histogram ok = Latencies.newHistogram();
    final Histogram ko = Latencies.newHistogram();
    final Map<String, Long> errors = new LinkedHashMap<>();
    final Map<String, Histogram> lags = new LinkedHashMap<>();
    final List<Map.Entry<String, Double>> gauges = new ArrayList<>();
    double length = 1;

    Second(double rate) {
      this.rate = rate;
    }
  }

  private final AdaptiveSettings settings;
  private final LimitSlo slo;
  private final AdaptiveController controller;
  private final RunEvents events;
  private final LimitWatch.Pace pace;
  private final double injectorThresholdMs;
  private final AdaptiveCurve curve = new AdaptiveCurve();
  private final Deque<Second> window = new ArrayDeque<>();
  private final List<StepResult> baseline = new ArrayList<>(); // the knee's: lowest p50, p99
  private Second current;
  private boolean started;
  private boolean sentThisSecond;
  private boolean over;
  private double startedAt;
  private double lastElapsed;
  private int judged;
  private double okShare = 1; // of the window's completed requests: what the system served

  /**
   * @param settings the run's settings
   * @param events where its events go (the run recorder)
   * @param pace what sends the load; its rate must already be {@code settings.start()}
   * @param injectorThresholdMs the injector lag p99 above which a window is the injector's
   */
  public AdaptiveWatch(
      AdaptiveSettings settings,
      RunEvents events,
      LimitWatch.Pace pace,
      double injectorThresholdMs) {
    this.settings = settings;
    this.slo = settings.objectives();
    this.controller = new AdaptiveController(settings);
    this.events = events;
    this.pace = pace;
    this.injectorThresholdMs = injectorThresholdMs;
    this.current = new Second(settings.start());
  }

  /** The curve so far. */
  public synchronized AdaptiveCurve curve() {
    return curve;
  }

  /** The settings and the curve, as {@code run.json}'s {@code adaptive} parameter holds them. */
  public synchronized Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>(settings.toMap());
    Double ceiling = controller.injectorCeiling();
    m.put("injectorCeiling", ceiling);
    m.putAll(curve.toMap());
    return m;
  }

  @Override
  public synchronized void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    sentThisSecond |= sent > 0;
    if (Injected.is(name)) { // failing on purpose says nothing of the capacity
      return;
    }
    if (ok != null && ok.getTotalCount() > 0) {
      current.ok.add(ok);
    }
    if (ko != null && ko.getTotalCount() > 0) {
      current.ko.add(ko);
    }
    errors.forEach((reason, count) -> current.errors.merge(reason, count, Long::sum));
  }

  @Override
  public synchronized void metric(String name, Histogram interval) {
    if (LimitWatch.INJECTOR_LAG.equals(name) || LimitWatch.PACE_LAG.equals(name)) {
      current.lags.computeIfAbsent(name, k -> Latencies.newHistogram()).add(interval);
    }
  }

  @Override
  public synchronized void gauge(String name, double value) {
    current.gauges.add(Map.entry(name, value));
  }

  @Override
  public synchronized void intervalEnd(long epochMs, double elapsedSeconds) {
    double length = elapsedSeconds - lastElapsed;
    lastElapsed = elapsedSeconds;
    Second second = current;
    second.length = length;
    if (over || !started && !sentThisSecond) {
      current = new Second(controller.rate());
      sentThisSecond = false;
      return;
    }
    if (!started) {
      started = true;
      startedAt = elapsedSeconds - length;
    }
    sentThisSecond = false;
    window.addLast(second);
    while (window.size() > settings.windowSeconds()) {
      window.removeFirst();
    }
    StepResult verdict = judge(elapsedSeconds);
    AdaptiveController.Decision decision =
        controller.next(
            new AdaptiveController.Window(
                verdict.achieved() * okShare(), verdict.why(), verdict.injector()));
    if (decision.action() == AdaptiveController.Action.INJECTOR) {
      events.event(
          INJECTOR_EVENT, StepResult.number(decision.rate()) + "/s", "injector: " + decision.why());
    }
    curve.add(
        elapsedSeconds - startedAt,
        second.rate,
        verdict.achieved() * okShare(),
        verdict.p99Ms(),
        verdict.errorPercent(),
        decision.action().jsonName());
    if (elapsedSeconds - startedAt >= settings.durationSeconds() - 0.5) {
      over = true;
      events.event(
          RESULT_EVENT,
          StepResult.number(curve.settledRate()) + "/s",
          "settled at " + StepResult.rate(curve.settledRate()) + "/s over the last minute");
      pace.finish();
    } else if (decision.rate() != second.rate) {
      pace.rate(decision.rate());
    }
    current = new Second(controller.rate());
  }

  private double okShare() {
    return okShare;
  }

  /** The window's verdict: its seconds replayed into one {@link StepStats}. */
  private StepResult judge(double elapsedSeconds) {
    double target = window.stream().mapToDouble(s -> s.rate).average().orElse(0);
    StepStats stats = new StepStats(target, injectorThresholdMs);
    long ok = 0;
    long all = 0;
    for (Second s : window) {
      stats.request(s.ok, s.ko, s.errors);
      s.lags.forEach(stats::injectorLag);
      s.gauges.forEach(g -> stats.gauge(g.getKey(), g.getValue()));
      stats.secondEnd(s.length);
      ok += s.ok.getTotalCount();
      all += s.ok.getTotalCount() + s.ko.getTotalCount();
    }
    okShare = all == 0 ? 1 : (double) ok / all;
    StepMeasure measure = stats.measure();
    StepResult result =
        StepResult.judge(
            ++judged,
            "adaptive",
            elapsedSeconds - window.size(),
            elapsedSeconds,
            measure,
            slo,
            baseline);
    if (result.passed() && measure.okCount() > 0) {
      keepBaseline(result);
    }
    return result;
  }

  /** Keeps the passing windows of the lowest p50 and p99: all the knee compares with. */
  private void keepBaseline(StepResult passing) {
    baseline.add(passing);
    StepResult lowP50 =
        baseline.stream().min((a, b) -> Double.compare(a.p50Ms(), b.p50Ms())).orElseThrow();
    StepResult lowP99 =
        baseline.stream().min((a, b) -> Double.compare(a.p99Ms(), b.p99Ms())).orElseThrow();
    baseline.clear();
    baseline.add(lowP50);
    if (lowP99 != lowP50) {
      baseline.add(lowP99);
    }
  }

  @Override
  public synchronized void closed(RunStatus status) {
    over = true;
  }
}
