package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.SqlRetries;

/**
 * The report's <em>SQL retries</em> section ({@code id="sql-retries"}): pgbench's counts of a SQL
 * run ({@link SqlRetries}), retries and failures after the last try apart, by cause; late requests
 * when the run had a latency limit. Absent when the run allowed no retry, had no latency limit and
 * saw no serialization failure or deadlock.
 */
final class SqlRetriesSection {
  private SqlRetriesSection() {}

  static void render(StringBuilder h, RunData run) {
    SqlRetries.of(run).ifPresent(r -> table(h, r));
  }

  private static void table(StringBuilder h, SqlRetries r) {
    h.append("<h2 id=\"sql-retries\">SQL retries</h2>\n<p class=\"note\">As pgbench's")
        .append(" <code>--max-tries</code>: a request that fails with a serialization failure")
        .append(" (SQLState 40001) or a deadlock (40P01) is sent again, up to ")
        .append(r.maxTries())
        .append(r.maxTries() == 1 ? " try" : " tries")
        .append(" in all; its latency counts from its first due time.</p>\n");
    h.append("<table><tr><th></th><th>serialization</th><th>deadlock</th><th>all</th>")
        .append("<th>% of ")
        .append(r.requests())
        .append(" requests</th></tr>\n");
    row(h, "retries", r.retriesSerialization(), r.retriesDeadlock(), r.retries(), -1);
    row(h, "requests retried", -1, -1, r.retried(), share(r.retried(), r));
    row(
        h,
        "failed after the last try",
        r.failuresSerialization(),
        r.failuresDeadlock(),
        r.failures(),
        share(r.failures(), r));
    row(
        h,
        "raised by the server",
        r.serializationFailures(),
        r.deadlockFailures(),
        r.serializationFailures() + r.deadlockFailures(),
        -1);
    h.append("</table>\n");
    if (r.latencyLimit() != null) {
      h.append("<p id=\"sql-late\">Late: ")
          .append(r.late())
          .append(" requests above the ")
          .append(escape(r.latencyLimit()))
          .append(" latency limit (")
          .append(Numbers.percent(share(r.late(), r)))
          .append(").</p>\n");
    }
  }

  private static double share(long count, SqlRetries r) {
    return r.requests() == 0 ? 0 : (double) count / r.requests();
  }

  private static void row(
      StringBuilder h, String label, long serialization, long deadlock, long all, double share) {
    h.append("<tr><td>").append(escape(label)).append("</td><td>");
    h.append(serialization < 0 ? "" : Long.toString(serialization)).append("</td><td>");
    h.append(deadlock < 0 ? "" : Long.toString(deadlock)).append("</td><td>");
    h.append(all).append("</td><td>");
    h.append(share < 0 ? "" : escape(Numbers.percent(share))).append("</td></tr>\n");
  }
}
