package io.fusillade.limit;

import java.util.List;

/**
 * The controller of an adaptive run: once a second, it takes the judgement of the last window
 * ({@link Window}) and sets the next arrival rate. It measures nothing itself ({@link
 * AdaptiveWatch} feeds it from the live record), so its tests are plain arithmetic.
 *
 * <p><b>Why AIMD, not a PID.</b> A PID on the latency error needs a latency set-point and gains
 * tuned to the system's dynamics; the objectives here are thresholds of several kinds (errors, the
 * served rate, a percentile, the lag), some of them yes-or-no, and the same run may face a database
 * whose latency barely moves until it saturates. AIMD, as TCP's congestion control and Netflix's
 * concurrency-limits do it, needs only "did every objective hold": it probes upward in bounded
 * steps while they hold and backs off by a factor when one fails, which converges on any capacity,
 * follows it when it drifts, and cannot oscillate wider than its own steps. Three refinements, each
 * bounded:
 *
 * <ul>
 *   <li><b>Increase</b>: the rate grows by {@code increase} (10%) of itself a second while every
 *       objective holds. TCP's increase is additive so that flows sharing a link converge on equal
 *       shares; an injector is one flow whose capacity may be 10/s or 100,000/s, and a step
 *       proportional to the rate keeps the probe's overshoot the same share at every scale. Every
 *       {@value #ACCELERATE_EVERY} increases in a row add one {@code increase} to the step, up to
 *       {@value #MAX_ACCELERATION} (as CUBIC grows faster far from where it last failed): near the
 *       capacity a failure comes within a step or two and the step stays 10%, while a capacity that
 *       doubled is reached in about 6 s instead of 8.
 *   <li><b>Decrease</b>: when an objective fails, the next rate is {@code decrease} (0.95) times
 *       the rate the system served in the window (its OK answers a second, at most the rate sent),
 *       and never less than half the rate: a saturated system's served rate is its capacity, so one
 *       decrease lands just below it instead of halving towards it. Then the controller holds for a
 *       window, so that the next judgement is made on seconds sent at the new rate only (the
 *       backlog of the failed ones would fail it again).
 *   <li><b>Slow start</b>, as TCP's: below a threshold the rate grows by half a second; the
 *       threshold is unbounded until the first failure, then half the rate at which the last
 *       passing streak broke. It brings the rate back within seconds after a collapse (a node lost:
 *       every request failing, the rate halved down to {@code min}).
 * </ul>
 *
 * <p>The injector is a hard limit: a window in which the injector lagged or failed requests itself
 * is never increased on: held when the system met its objectives (once may be a pause of its JVM),
 * decreased as any failing window when it did not; a second one in a row sets a ceiling at {@code
 * decrease} times the rate, which the rate does not pass until the injector has vouched for {@value
 * #CEILING_MEMORY_SECONDS} windows in a row (then it probes again, and a saturated injector sets
 * the ceiling again at once). The rate is always within {@code min} and {@code max}. The first
 * {@value #WARM_UP_SECONDS} seconds and a window's worth are not judged: the run's warm-up.
 */
public final class AdaptiveController {
  /** The factor of the slow start's growth a second. */
  static final double SLOW_START = 1.5;

  /** The increases in a row after which the step grows by one more {@code increase}. */
  static final int ACCELERATE_EVERY = 3;

  /** The most increases one step adds up to (10% a second: at most 40%). */
  static final int MAX_ACCELERATION = 4;

  /**
   * The first seconds of a run, not judged: its connections open and its code is compiled, and a
   * first second that failed on them would throw the slow start away.
   */
  static final int WARM_UP_SECONDS = 2;

  /**
   * The healthy windows after which the injector's ceiling is lifted: a ceiling that outlived a
   * pause of the injector (another process on its machine for a while) would hold the rate below
   * the system's capacity for the rest of a long run; a saturated injector sets it again at once.
   */
  static final int CEILING_MEMORY_SECONDS = 30;

  /** What the controller did in a second. */
  public enum Action {
    /** Every objective held: the rate grew by {@code increase}. */
    UP,
    /** Every objective held, below the slow-start threshold: the rate grew by half. */
    SLOW_START,
    /** An objective failed: the rate fell. */
    DOWN,
    /** The rate stayed: after a decrease, or at a bound. */
    HOLD,
    /** The injector could not vouch for the window: the rate stayed, or a ceiling was set. */
    INJECTOR;

    /** The name in {@code run.json}: lower case, dashed. */
    public String jsonName() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
  }

  /**
   * The judgement of one window.
   *
   * @param served the OK answers a second in the window
   * @param failures why it failed its objectives (empty when every one held)
   * @param injector why the injector cannot vouch for it, or null when it can
   */
  public record Window(double served, List<String> failures, String injector) {
    public Window {
      failures = List.copyOf(failures);
    }

    /** A window where every objective held, {@code served} a second. */
    public static Window passing(double served) {
      return new Window(served, List.of(), null);
    }

    /** A window that failed an objective, {@code served} a second. */
    public static Window failing(double served, String why) {
      return new Window(served, List.of(why), null);
    }

    /** A window the injector cannot vouch for. */
    public static Window injector(double served, String why) {
      return new Window(served, List.of(), why);
    }
  }

  /**
   * What the controller decided.
   *
   * @param rate the rate from now on, per second
   * @param action what it did
   * @param why the failures or the injector's problem that made it, or empty
   */
  public record Decision(double rate, Action action, String why) {}

  private final AdaptiveSettings settings;
  private final int window;
  private double rate;
  private double threshold = Double.POSITIVE_INFINITY;
  private double ceiling = Double.POSITIVE_INFINITY;
  private int cooldown;
  private int injectorStrikes;
  private boolean passedSinceFailure = true;
  private int healthySinceCeiling;
  private int streak; // increases in a row since the last decrease (or hold at a bound)

  public AdaptiveController(AdaptiveSettings settings) {
    this.settings = settings;
    this.window = settings.windowSeconds();
    this.rate = settings.start();
    this.cooldown = window + WARM_UP_SECONDS; // the first judgement: a full window after warm-up
  }

  /** The rate under way, per second. */
  public double rate() {
    return rate;
  }

  /** The injector's ceiling, or null while it vouched for every window. */
  public Double injectorCeiling() {
    return Double.isInfinite(ceiling) ? null : ceiling;
  }

  /**
   * Takes the window that ended with this second and sets the next rate.
   *
   * @param last the judgement of the last {@code window} seconds
   */
  public Decision next(Window last) {
    if (cooldown > 1) {
      // The window still holds seconds sent before the last decrease: not judged.
      cooldown--;
      return new Decision(rate, Action.HOLD, "");
    }
    cooldown = 0;
    if (last.injector() != null) {
      streak = 0;
      if (++injectorStrikes >= 2) {
        ceiling = Math.max(settings.min(), Math.min(ceiling, rate * settings.decrease()));
        healthySinceCeiling = 0;
        set(Math.min(rate, ceiling));
      }
      // The next judgement on seconds of its own: two windows sharing one bad second are one
      // strike, not two.
      cooldown = window;
      if (last.failures().isEmpty()) {
        return new Decision(rate, Action.INJECTOR, last.injector());
      }
      // The system failed its objectives too: whoever is to blame, a lower rate is safe, and
      // holding an overload would let its queue grow.
      return decrease(last, "injector: " + last.injector() + "; ");
    }
    injectorStrikes = 0;
    if (!Double.isInfinite(ceiling) && ++healthySinceCeiling >= CEILING_MEMORY_SECONDS) {
      ceiling = Double.POSITIVE_INFINITY;
    }
    if (!last.failures().isEmpty()) {
      return decrease(last, "");
    }
    passedSinceFailure = true;
    double top = Math.min(settings.max(), ceiling);
    if (rate >= top) {
      streak = 0;
      set(top);
      return new Decision(rate, Action.HOLD, "");
    }
    if (rate < threshold) {
      set(Math.min(rate * SLOW_START, Math.max(threshold, rate * (1 + settings.increase()))));
      return new Decision(rate, Action.SLOW_START, "");
    }
    // Each ACCELERATE_EVERY increases in a row add one more increase to the step: a capacity
    // that rose far (a node back, a compaction over) is reached in seconds, while near the
    // capacity a failure comes within a step or two and the step stays small.
    double steps = Math.min(MAX_ACCELERATION, 1 + streak++ / ACCELERATE_EVERY);
    set(rate * (1 + settings.increase() * steps));
    return new Decision(rate, Action.UP, "");
  }

  /** An objective failed: below what the system served, no less than half the rate. */
  private Decision decrease(Window last, String prefix) {
    if (passedSinceFailure) {
      threshold = rate / 2; // where the next slow start ends (TCP's ssthresh)
    }
    passedSinceFailure = false;
    streak = 0;
    double served = Math.min(rate, Math.max(0, last.served()));
    set(Math.max(rate / 2, served * settings.decrease()));
    // A window of seconds at the new rate, and one more: the first second after a decrease still
    // serves the queue the failed ones left (their latency, counted from the due time, is high).
    cooldown = window + 1;
    return new Decision(rate, Action.DOWN, prefix + String.join(", ", last.failures()));
  }

  private void set(double next) {
    rate = Math.max(settings.min(), Math.min(Math.min(settings.max(), ceiling), next));
  }
}
