package io.fusillade.reports.checks;

import io.fusillade.record.FailureClass;
import io.fusillade.record.Injected;
import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;

/**
 * {@code errors < 1%}: failed requests as a share of completed ones, of all requests or of one
 * request name. Only server- and network-class failures count ({@link FailureClass}): a request the
 * injector failed to send (its queue full, not started on time) says nothing about the system, so
 * it is left out of both the failures and the completed requests, and {@link InjectorCheck} fails
 * the run for it instead. Requests injected to fail ({@link Injected}: {@code injected syntax
 * error}) are left out too unless the check names one. The measured text says how many were left
 * out.
 *
 * @param limitPercent the limit in percent
 * @param request the request name, or null for all requests
 */
record ErrorsCheck(String text, Comparator comparator, double limitPercent, String request)
    implements Check {

  @Override
  public CheckResult evaluate(RunData run) {
    long ko = 0;
    long count = 0;
    long injector = 0;
    long injected = 0;
    for (RequestTotals totals : run.requests().values()) {
      if (request == null && Injected.is(totals.name())) {
        injected += totals.count(); // failing on purpose: judged only when named
        continue;
      }
      if (request == null || request.equals(totals.name())) {
        long own = FailureClass.counts(totals.errors()).get(FailureClass.INJECTOR);
        // the reasons are capped (see RequestChannel): never leave out more than the KOs
        own = Math.min(own, totals.koCount());
        injector += own;
        ko += totals.koCount() - own;
        count += totals.count() - own;
      }
    }
    if (count == 0) {
      String what =
          request == null ? "no requests completed" : "no requests named \"" + request + "\"";
      if (injector > 0) {
        what += " (" + Numbers.count(injector) + " injector-class KO: never sent)";
      }
      return CheckResult.of(text, false, what, what + ": nothing measured, nothing met");
    }
    double percent = 100.0 * ko / count;
    boolean passed = comparator.holds(percent, limitPercent);
    String measured =
        "errors = "
            + Numbers.number(percent)
            + "% ("
            + ko
            + " of "
            + count
            + (injector == 0 ? "" : "; " + injector + " injector-class KO not counted")
            + (injected == 0 ? "" : "; " + injected + " injected requests not counted")
            + ")";
    StringBuilder why =
        new StringBuilder("errors = ")
            .append(Numbers.number(percent))
            .append("%: ")
            .append(Numbers.count(ko))
            .append(" server- and network-class KO of ")
            .append(Numbers.count(count))
            .append(" completed requests")
            .append(request == null ? "" : " \"" + request + "\"")
            .append(", ")
            .append(comparator.against(passed, Numbers.number(limitPercent) + "%"));
    if (injector > 0) {
      why.append("; not counted: ")
          .append(Numbers.count(injector))
          .append(" injector-class KO (never sent: the injector's failure, which fails")
          .append(" 'injector not saturated' instead)");
    }
    if (injected > 0) {
      why.append(injector > 0 ? ", " : "; not counted: ")
          .append(Numbers.count(injected))
          .append(" requests injected to fail (judged only when named)");
    }
    return CheckResult.of(text, passed, measured, why.toString());
  }
}
