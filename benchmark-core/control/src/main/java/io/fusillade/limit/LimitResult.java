package io.fusillade.limit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a limit search found.
 *
 * @param verdict how it ended
 * @param limit the maximum sustainable rate (per second), confirmed by a step of its own; null when
 *     the search could not name one (see the verdict)
 * @param sustained the highest rate at which a step passed: equal to the limit when one was found,
 *     otherwise the most the system is known to sustain (0 when no step passed)
 * @param confirmation the confirming step, or null
 * @param steps every step, in order
 */
public record LimitResult(
    Verdict verdict,
    Double limit,
    double sustained,
    StepResult confirmation,
    List<StepResult> steps) {

  public LimitResult {
    steps = List.copyOf(steps);
  }

  /** How a search ended. */
  public enum Verdict {
    /** A limit was found and confirmed. */
    FOUND("found"),
    /**
     * The injector lagged or failed requests itself at a step: no rate from there up says anything
     * about the system, which sustained at least {@link #sustained()}.
     */
    INJECTOR_LIMIT("injector-limit"),
    /** The system sustained the highest rate the search was allowed. */
    ABOVE_MAX("above-max"),
    /** Even the lowest rate tried (1/s, or the start when lower) failed. */
    BELOW_MIN("below-min"),
    /**
     * A step filled a server's disk ({@code disk not full} failed): a broker whose disk fills
     * stops, so no later step would say anything. The limit is the last rate that passed ({@link
     * #sustained()}), below the one that filled the disk, unconfirmed.
     */
    DISK_FULL("disk-full"),
    /** The confirmation failed twice: the system is not stable near the rate found. */
    UNSTABLE("unstable"),
    /** The search ran out of steps before it reached its resolution. */
    OUT_OF_STEPS("out-of-steps"),
    /** The run ended before the search did (stopped, aborted, crashed). */
    STOPPED("stopped");

    private final String jsonName;

    Verdict(String jsonName) {
      this.jsonName = jsonName;
    }

    /** Its name in {@code run.json}. */
    public String jsonName() {
      return jsonName;
    }

    /** The verdict named {@code name} in {@code run.json}, or {@link #STOPPED}. */
    public static Verdict of(String name) {
      for (Verdict v : values()) {
        if (v.jsonName.equals(name)) {
          return v;
        }
      }
      return STOPPED;
    }
  }

  /** The result in one sentence, for the console and the report. */
  public String describe() {
    return switch (verdict) {
      case FOUND ->
          "maximum sustainable rate "
              + StepResult.rate(limit)
              + "/s (confirmed: achieved "
              + StepResult.rate(confirmation.achieved())
              + "/s, p50 "
              + StepResult.number(confirmation.p50Ms())
              + " ms, p99 "
              + StepResult.number(confirmation.p99Ms())
              + " ms, errors "
              + StepResult.number(confirmation.errorPercent())
              + "%)";
      case INJECTOR_LIMIT ->
          "the injector is the limit, not the system: it could not vouch for "
              + StepResult.rate(lastTried())
              + "/s ("
              + lastInjectorProblem()
              + "); the system sustained at least "
              + StepResult.rate(sustained)
              + "/s";
      case ABOVE_MAX ->
          "the system sustained the highest rate tried, "
              + StepResult.rate(sustained)
              + "/s: its limit is above it (raise max)";
      case BELOW_MIN ->
          "no rate tried was sustained, down to " + StepResult.rate(lastTried()) + "/s";
      case DISK_FULL ->
          (sustained > 0
                  ? "maximum rate that kept the disk below full "
                      + StepResult.rate(sustained)
                      + "/s (not confirmed: the disk filled at "
                  : "the disk filled at the lowest rate tried, ")
              + StepResult.rate(lastTried())
              + "/s, and a server whose disk fills stops: "
              + String.join(", ", steps.get(steps.size() - 1).why())
              + (sustained > 0 ? ")" : "");
      case UNSTABLE ->
          "not stable near "
              + StepResult.rate(sustained)
              + "/s: its confirmation failed twice ("
              + steps.get(steps.size() - 1).verdict()
              + ")";
      case OUT_OF_STEPS ->
          "out of steps before the resolution was reached: sustained "
              + StepResult.rate(sustained)
              + "/s, not confirmed";
      case STOPPED ->
          "the run ended before the search did"
              + (sustained > 0 ? ": sustained " + StepResult.rate(sustained) + "/s" : "");
    };
  }

  private double lastTried() {
    return steps.isEmpty() ? 0 : steps.get(steps.size() - 1).target();
  }

  private String lastInjectorProblem() {
    for (int i = steps.size() - 1; i >= 0; i--) {
      if (steps.get(i).injector() != null) {
        return steps.get(i).injector();
      }
    }
    return "";
  }

  /** The result as {@code run.json}'s {@code limit} parameter holds it (settings added apart). */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("verdict", verdict.jsonName());
    if (limit != null) {
      m.put("rate", limit);
    }
    m.put("sustained", sustained);
    m.put("summary", describe());
    m.put("steps", steps.stream().map(StepResult::toMap).toList());
    return m;
  }

  /** A result read back from {@link #toMap()}'s form. */
  public static LimitResult fromMap(Map<?, ?> m) {
    List<StepResult> steps =
        m.get("steps") instanceof List<?> list
            ? list.stream()
                .filter(Map.class::isInstance)
                .map(o -> StepResult.fromMap((Map<?, ?>) o))
                .toList()
            : List.of();
    Double rate = m.get("rate") instanceof Number n ? n.doubleValue() : null;
    StepResult confirmation =
        steps.isEmpty() || !"confirm".equals(steps.get(steps.size() - 1).phase())
            ? null
            : steps.get(steps.size() - 1);
    Verdict verdict = Verdict.of(String.valueOf(m.get("verdict")));
    return new LimitResult(
        verdict,
        verdict == Verdict.FOUND || verdict == Verdict.DISK_FULL ? rate : null,
        m.get("sustained") instanceof Number n ? n.doubleValue() : 0,
        verdict == Verdict.FOUND ? confirmation : null,
        steps);
  }
}
