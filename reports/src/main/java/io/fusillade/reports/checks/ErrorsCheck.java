package io.fusillade.reports.checks;

import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;

/**
 * {@code errors < 1%}: failed requests as a share of completed ones, of all requests or of one
 * request name.
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
    for (RequestTotals totals : run.requests().values()) {
      if (request == null || request.equals(totals.name())) {
        ko += totals.koCount();
        count += totals.count();
      }
    }
    if (count == 0) {
      String what =
          request == null ? "no requests completed" : "no requests named \"" + request + "\"";
      return CheckResult.of(text, false, what, "");
    }
    double percent = 100.0 * ko / count;
    boolean passed = comparator.holds(percent, limitPercent);
    String measured = "errors = " + Numbers.number(percent) + "% (" + ko + " of " + count + ")";
    return CheckResult.of(
        text,
        passed,
        measured,
        "limit " + comparator.symbol + " " + Numbers.number(limitPercent) + "%");
  }
}
