package io.fusillade.reports.checks;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.FaultWindows;
import io.fusillade.reports.runs.RunData;
import java.util.List;

/**
 * {@code recovery < 10s after "kill broker 1"}: how long the good requests took, after a scheduled
 * fault, to be back within their range from before it (see {@link FaultWindows} for the measure). A
 * fault scheduled more than once is judged by its slowest recovery; a fault the run does not hold,
 * or one the requests never recovered from, fails the check.
 *
 * @param limitMs the limit, milliseconds
 * @param fault the fault's label, with or without its length
 */
record RecoveryCheck(String text, Comparator comparator, double limitMs, String fault)
    implements Check {

  /** The measure of recovery, in words, for every line. */
  static final String RULE =
      "recovered: the requests not injected to fail back, "
          + FaultWindows.STEADY_SECONDS
          + " seconds in a row, within the worst error rate (at least "
          + (int) FaultWindows.ERROR_FLOOR_PERCENT
          + "%) and OK p99 of the "
          + FaultWindows.BEFORE_SECONDS
          + " s before the fault, counted from its end";

  @Override
  public CheckResult evaluate(RunData run) {
    List<FaultWindows> all = FaultWindows.of(run);
    List<FaultWindows> named = all.stream().filter(f -> f.isNamed(fault)).toList();
    String limit = Numbers.number(limitMs / 1000) + " s";
    if (named.isEmpty()) {
      String known =
          all.isEmpty()
              ? "the run has no faults"
              : "its faults: "
                  + String.join(", ", all.stream().map(f -> "\"" + f.label() + "\"").toList());
      String none = "no fault \"" + fault + "\" in the run";
      return CheckResult.of(text, false, none, none + " (" + known + "): nothing to recover from");
    }
    double worst = 0;
    for (FaultWindows f : named) {
      if (f.recovery().isEmpty()) {
        String never =
            "no recovery after \"" + f.label() + "\" at " + at(f) + ": " + f.recoveryNote();
        return CheckResult.of(text, false, never, never + "; " + RULE);
      }
      worst = Math.max(worst, f.recoverySeconds());
    }
    boolean passed = comparator.holds(worst * 1000, limitMs);
    String measured =
        "recovery = "
            + Numbers.number(worst)
            + " s after \""
            + named.get(0).label()
            + "\""
            + (named.size() > 1
                ? " (the slowest of " + named.size() + ")"
                : " at " + at(named.get(0)));
    return CheckResult.of(
        text, passed, measured, measured + ", " + comparator.against(passed, limit) + "; " + RULE);
  }

  private static String at(FaultWindows f) {
    return String.format(java.util.Locale.ROOT, "%+.1f s", f.fromSeconds());
  }

  @Override
  public java.util.Optional<String> inapplicable(RunShape shape) {
    if (shape.faults().stream()
        .anyMatch(f -> io.fusillade.reports.runs.FaultWindows.labelMatches(f, fault))) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(
        shape.faults().isEmpty()
            ? "this run schedules no fault"
            : "this run schedules no fault \""
                + fault
                + "\" (its faults: "
                + String.join("; ", shape.faults())
                + ")");
  }
}
