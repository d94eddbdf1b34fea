package io.fusillade.limit;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The search for the maximum sustainable rate, as a state machine fed one judged step at a time: it
 * decides the next rate, or that it is done, and holds the {@link LimitResult}. It measures nothing
 * itself ({@link LimitWatch} runs it on a live run), so its tests are plain arithmetic.
 *
 * <ol>
 *   <li><b>Ramp</b>: from {@code from}, each passing step multiplies the rate by {@code growth}, up
 *       to {@code max}; when the very first step fails, the rate is divided instead, down to 1/s.
 *   <li><b>Bisect</b>: between the last passing rate and the first failing one, the geometric mean
 *       is tried, until the failing rate is within {@code resolution} above the passing one. After
 *       a step that failed with the system answering well below its rate (A requests a second), A
 *       is tried instead, and when it passes, one resolution above it; after one that failed though
 *       the system answered nearly all of it, one resolution below it. A saturated system shows
 *       where its knee is, and the search goes there instead of halving towards it. Only rates
 *       tried are ever known to pass or fail.
 *   <li><b>Confirm</b>: one more step at the rate found, as long as {@code confirm}. When it fails,
 *       the rate one resolution lower is confirmed; a second failure ends the search {@code
 *       unstable}.
 * </ol>
 *
 * <p>A step the injector cannot vouch for (it lagged, or failed requests itself) is run again at
 * the same rate (a pause of its JVM passes); a second time ends the search: every higher rate would
 * be judged on the injector, not the system.
 */
public final class LimitSearch {
  /** A probe one resolution above a passing rate stays just inside it, so that its failure ends. */
  private static final double HINT_MARGIN = 0.9999;

  /** The lowest rate a search goes down to. */
  public static final double MIN_RATE = 1;

  private enum Phase {
    RAMP,
    BISECT,
    CONFIRM,
    DONE
  }

  private final LimitSettings settings;
  private final List<StepResult> steps = new ArrayList<>();
  private Phase phase = Phase.RAMP;
  private double rate;
  private Double lastGood;
  private Double firstBad;
  private int confirmFailures;
  private boolean retriedForInjector;
  private double hint = Double.NaN; // the next rate to try, from what a failing step completed
  private boolean probingHint; // the step under way tries that rate
  private LimitResult result;

  public LimitSearch(LimitSettings settings) {
    this.settings = settings;
    this.rate = settings.from();
  }

  /** The rate of the step under way (the first one before any result). */
  public double rate() {
    return rate;
  }

  /** The phase of the step under way: {@code ramp}, {@code bisect} or {@code confirm}. */
  public String phase() {
    return phase.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Whether the step under way is the confirmation (which may be longer). */
  public boolean confirming() {
    return phase == Phase.CONFIRM;
  }

  /** Whether the search is over. */
  public boolean done() {
    return phase == Phase.DONE;
  }

  /** The steps judged so far. */
  public List<StepResult> steps() {
    return List.copyOf(steps);
  }

  /**
   * Takes the judged step under way and decides the next one.
   *
   * @return the next step's rate, or empty when the search is over ({@link #result()})
   */
  public OptionalDouble next(StepResult step) {
    if (done()) {
      throw new IllegalStateException("the search is over");
    }
    steps.add(step);
    if (filledTheDisk(step)) {
      // A broker whose disk filled has stopped: no later step would say anything of the system,
      // whether the injector lagged in this one or not.
      return finish(LimitResult.Verdict.DISK_FULL, lastGood, null);
    }
    if (step.injector() != null) {
      // Once at a rate may be a pause of the injector's JVM (its compiler, a collection): the
      // same rate again tells a hiccup from a saturated injector.
      if (retriedForInjector) {
        return finish(LimitResult.Verdict.INJECTOR_LIMIT, null, null);
      }
      retriedForInjector = true;
      return proceed(phase, rate);
    }
    retriedForInjector = false;
    boolean passed = step.passed();
    switch (phase) {
      case RAMP -> {
        if (passed) {
          lastGood = rate;
          if (firstBad == null) {
            if (rate >= settings.max()) {
              return finish(LimitResult.Verdict.ABOVE_MAX, null, null);
            }
            return proceed(Phase.RAMP, Math.min(settings.max(), rate * settings.growth()));
          }
        } else {
          firstBad = failing(step);
          if (lastGood == null) {
            double lower = rate / settings.growth();
            if (rate <= MIN_RATE) {
              return finish(LimitResult.Verdict.BELOW_MIN, null, null);
            }
            return proceed(Phase.RAMP, Math.max(MIN_RATE, lower));
          }
        }
        return narrow();
      }
      case BISECT -> {
        if (passed) {
          lastGood = rate;
          if (probingHint) {
            hint = rate * (1 + settings.resolution()) * HINT_MARGIN; // within the resolution
          }
        } else {
          firstBad = failing(step);
        }
        return narrow();
      }
      case CONFIRM -> {
        if (passed) {
          return finish(LimitResult.Verdict.FOUND, rate, step);
        }
        if (++confirmFailures >= 2) {
          lastGood = null;
          return finish(LimitResult.Verdict.UNSTABLE, null, null);
        }
        firstBad = rate;
        lastGood = rate / (1 + settings.resolution());
        return proceed(Phase.CONFIRM, lastGood);
      }
      default -> throw new IllegalStateException(phase.name());
    }
  }

  /** Whether {@code disk not full} failed the step: a disk error, or a disk that filled. */
  static boolean filledTheDisk(StepResult step) {
    return step.why().stream()
        .anyMatch(w -> w.startsWith(LimitSlo.DISK_ERROR) || w.startsWith(LimitSlo.DISK_FULL));
  }

  /**
   * Notes a failed step: its rate fails. When the system answered well below it (it completed A
   * requests a second, under 95% of the rate), A is where its knee probably is: the next rate
   * tried. When it answered nearly all of it, the knee is just below: one resolution lower is.
   */
  private double failing(StepResult step) {
    hint = Double.NaN;
    if (step.achieved() > 0 && step.achieved() < rate * LimitSlo.DEFAULT_RATE_SHARE) {
      hint = step.achieved();
    } else if (step.achieved() > 0 && !probingHint) {
      // It answered nearly all it was sent and still failed: its knee is just below this rate.
      // One resolution lower closes the bracket if it passes; if not (or after a probe already),
      // bisection goes on: no walking down a resolution at a time.
      hint = rate / (1 + settings.resolution()) / HINT_MARGIN;
    }
    return rate;
  }

  /** Bisects, or confirms once the bracket is within the resolution. */
  private OptionalDouble narrow() {
    if (firstBad <= lastGood * (1 + settings.resolution())) {
      return proceed(Phase.CONFIRM, lastGood);
    }
    // What a failing step completed is tried first; when it passes, one resolution above it, which
    // closes the bracket when it fails. Otherwise the geometric mean: halving, in ratio.
    double next = Math.sqrt(lastGood * firstBad);
    boolean probe = false;
    if (!Double.isNaN(hint)) {
      // Never at or below the last passing rate: at least one resolution above it.
      // Not rounded: a probe one resolution from a bound must stay inside the resolution.
      double tried = Math.max(hint, lastGood * (1 + settings.resolution()) * HINT_MARGIN);
      if (tried > lastGood && tried < firstBad) {
        next = tried;
        probe = true;
      }
      hint = Double.NaN;
    }
    probingHint = probe;
    return proceed(Phase.BISECT, probe ? next : roundRate(next, lastGood, firstBad));
  }

  private OptionalDouble proceed(Phase next, double nextRate) {
    if (steps.size() >= settings.maxSteps()) {
      return finish(LimitResult.Verdict.OUT_OF_STEPS, null, null);
    }
    phase = next;
    rate = nextRate;
    return OptionalDouble.of(rate);
  }

  private OptionalDouble finish(LimitResult.Verdict verdict, Double limit, StepResult confirmed) {
    phase = Phase.DONE;
    double sustained =
        steps.stream().filter(StepResult::passed).mapToDouble(StepResult::target).max().orElse(0);
    if (verdict == LimitResult.Verdict.FOUND) {
      sustained = limit;
    }
    result = new LimitResult(verdict, limit, sustained, confirmed, steps);
    return OptionalDouble.empty();
  }

  /** Ends the search early (the run ended first): {@link LimitResult.Verdict#STOPPED}. */
  public LimitResult stop() {
    if (!done()) {
      finish(LimitResult.Verdict.STOPPED, null, null);
    }
    return result;
  }

  /** The result, once {@link #done()}. */
  public LimitResult result() {
    if (!done()) {
      throw new IllegalStateException("the search is not over");
    }
    return result;
  }

  /** {@code value} to three significant digits, kept strictly between the two bounds. */
  static double roundRate(double value, double low, double high) {
    double scale = Math.pow(10, Math.floor(Math.log10(value)) - 2);
    double rounded = Math.round(value / scale) * scale;
    return rounded > low && rounded < high ? rounded : value;
  }
}
