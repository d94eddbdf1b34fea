package io.fusillade.reports.checks;

import io.fusillade.record.RunParameters;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SteadyRate;
import java.util.Map;

/**
 * {@code rate >= 150/s} or {@code rate >= 99% of target}: the steady-state rate of completed
 * requests (all names, or one), against a number or a share of a parameter of {@code run.json}.
 * {@code target} means the run's target rate as {@link
 * io.fusillade.record.RunParameters#rateParameter} finds it ({@code rate}, or {@code targetRate} in
 * records of older versions); {@code of <name>} names any other parameter. A run too short for a
 * steady state ({@link SteadyRate}) fails it with that reason: its rate is its start-up and drain.
 *
 * @param limit requests per second, or a percentage when {@code parameter} is set
 * @param parameter the parameter the percentage is of, or null for an absolute limit
 * @param request the request name, or null for all requests
 */
record RateCheck(String text, Comparator comparator, double limit, String parameter, String request)
    implements Check {

  /** How the rate was measured, for every line. */
  private static final String STEADY =
      " (completions per second over the whole flush intervals between the first and the last"
          + " with completions)";

  @Override
  public CheckResult evaluate(RunData run) {
    if (request != null && !run.requests().containsKey(request)) {
      String none = "no requests named \"" + request + "\"";
      return CheckResult.of(text, false, none, none + ": nothing measured, nothing met");
    }
    if (!run.injectors().stream()
        // an injector that sent none of them adds nothing to the rate (RunData.rate)
        .filter(record -> request == null || record.requests().containsKey(request))
        .allMatch(record -> SteadyRate.rateIsJudgeable(record, request))) {
      // Its rate would be its start-up and drain (a 1 s run at 100/s measures about 67/s):
      // say so rather than judge a number that describes the recorder's flushes.
      return CheckResult.of(
          text,
          false,
          "no steady state",
          "no steady state: the requests' completions span fewer than three flush intervals"
              + " (about 3 s), too short to judge a rate; run longer");
    }
    double rate = run.rate(request);
    String measured = "rate = " + Numbers.number(rate) + "/s";
    String what =
        "steady-state rate"
            + (request == null ? "" : " of \"" + request + "\"")
            + " = "
            + Numbers.number(rate)
            + "/s"
            + STEADY;
    if (parameter == null) {
      boolean passed = comparator.holds(rate, limit);
      return CheckResult.of(
          text,
          passed,
          measured,
          what + ", " + comparator.against(passed, Numbers.number(limit) + "/s"));
    }
    Map<String, Object> parameters = run.manifest().parameters();
    String name = parameter;
    if (name.equals("target")) {
      String recorded = RunParameters.rateParameter(parameters);
      name = recorded != null ? recorded : RunParameters.RATE;
    }
    Object value = parameters.get(name);
    if (!(value instanceof Number first)) {
      return CheckResult.of(
          text,
          false,
          measured,
          what + "; run.json has no numeric parameter \"" + name + "\" to take the share of");
    }
    Number target = first;
    boolean summed = false;
    if (parameter.equals("target") && parameters.containsKey("injectorIndex")) {
      // injectors that split one test's rate (--injectors N): the test's target is their sum
      double sum = 0;
      for (var record : run.injectors()) {
        if (record.manifest().parameters().get(name) instanceof Number part) {
          sum += part.doubleValue();
        }
      }
      target = sum;
      summed = true;
    }
    double limitRate = target.doubleValue() * limit / 100;
    boolean passed = comparator.holds(rate, limitRate);
    String share = Numbers.number(100 * rate / target.doubleValue()) + "%";
    return CheckResult.of(
        text,
        passed,
        measured + ", " + share + " of " + name + " " + Numbers.number(target.doubleValue()),
        what
            + " = "
            + share
            + " of "
            + name
            + " "
            + Numbers.number(target.doubleValue())
            + (summed ? " (the injectors' targets added up)" : "")
            + ", "
            + comparator.against(
                passed,
                Numbers.number(limitRate) + "/s (" + Numbers.number(limit) + "% of " + name + ")"));
  }

  @Override
  public java.util.Optional<String> inapplicable(RunShape shape) {
    if ("target".equals(parameter) && !shape.targetRate()) {
      return java.util.Optional.of(
          "this run has no target rate (a queue of queries or a ladder's sessions run as fast as"
              + " they can): judge its rate against a number ('rate >= 150/s') or drop the check");
    }
    return java.util.Optional.empty();
  }
}
