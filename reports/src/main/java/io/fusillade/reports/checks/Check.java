package io.fusillade.reports.checks;

import io.fusillade.reports.runs.RunData;

/**
 * A check (a service-level objective) on a run, parsed from text by {@link CheckParser}. {@link
 * #evaluate} measures the run and says whether the check held.
 */
public sealed interface Check
    permits LatencyCheck,
        ErrorsCheck,
        RateCheck,
        LagNotGrowingCheck,
        InjectorCheck,
        DeliveryCheck,
        ServerCheck,
        LogCheck,
        RecoveryCheck {

  /**
   * The check as written.
   *
   * @return e.g. {@code p99 < 50ms}
   */
  String text();

  /**
   * Measures the run.
   *
   * @param run the run
   * @return the outcome with the measured value
   */
  CheckResult evaluate(RunData run);

  /**
   * Why this check cannot be judged on a run of that shape, or empty when it can: a rate against
   * the target on a run without one, delivery or lag on a run that reads no topic, a recovery after
   * a fault the run does not have.
   */
  default java.util.Optional<String> inapplicable(RunShape shape) {
    return java.util.Optional.empty();
  }
}
