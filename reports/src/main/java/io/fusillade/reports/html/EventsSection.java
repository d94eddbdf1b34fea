package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.EventRows;
import io.fusillade.reports.runs.FaultWindows;
import io.fusillade.reports.runs.LimitResults;
import io.fusillade.reports.runs.RunData;
import java.util.List;
import java.util.Locale;

/**
 * The run's events in its HTML report ({@code events.jsonl}): a small table of when, what, which
 * node and why — a node of the system under test that went down (its connections refused, reset or
 * timed out) and came back when the injector's probe found it answering. The time charts draw the
 * same outages as red bands. Nothing for a run without events.
 */
final class EventsSection {
  private EventsSection() {}

  /**
   * Appends the section.
   *
   * @param h the page
   * @param run the run
   */
  static void table(StringBuilder h, RunData run) {
    faults(h, run);
    // The limit search's own events are its table (LimitSection).
    List<EventRows> events =
        EventRows.of(run).stream().filter(e -> !LimitResults.isLimitEvent(e.kind())).toList();
    if (events.isEmpty()) {
      return;
    }
    h.append("<h2 id=\"events\">Events</h2>\n")
        .append(
            "<p class=\"note\">What happened beside the requests, from <code>events.jsonl</code>:")
        .append(" a node marked down at its first refused, reset or timed-out connection (its")
        .append(" requests then go to the other nodes, or fail at once), and up again when the")
        .append(" injector's probe found it answering. Time from the start of the run.")
        .append(" Scheduled faults begin and end with <code>fault-start</code> and")
        .append(" <code>fault-end</code>.</p>\n")
        .append("<table><tr><th>time</th><th>event</th><th>node</th><th>detail</th></tr>\n");
    for (EventRows e : events.subList(0, Math.min(events.size(), EventRows.MAX_SHOWN))) {
      h.append("<tr class=\"")
          .append(escape(e.kind()))
          .append("\"><td>")
          .append(escape(e.at()))
          .append("</td><td>")
          .append(escape(e.kind()))
          .append("</td><td>")
          .append(escape(e.target()))
          .append("</td><td class=\"text\">")
          .append(escape(e.detail()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
    if (events.size() > EventRows.MAX_SHOWN) {
      h.append("<p class=\"note\">")
          .append(events.size() - EventRows.MAX_SHOWN)
          .append(" more events in <code>events.jsonl</code>.</p>\n");
    }
  }

  /**
   * The scheduled faults: when each began and ended, how it went, and how long the good requests
   * took to be back in their range from before it ({@link FaultWindows}).
   */
  private static void faults(StringBuilder h, RunData run) {
    List<FaultWindows> faults = FaultWindows.of(run);
    if (faults.isEmpty()) {
      return;
    }
    h.append("<h2 id=\"faults\">Faults</h2>\n")
        .append("<p class=\"note\">The faults scheduled during the run, shaded red on the time")
        .append(" charts. Recovery: from the end of a fault until the requests not injected to")
        .append(" fail are back, for ")
        .append(FaultWindows.STEADY_SECONDS)
        .append(" seconds in a row, within the worst error rate (at least ")
        .append(Numbers.number(FaultWindows.ERROR_FLOOR_PERCENT))
        .append("%) and OK p99 of the ")
        .append(FaultWindows.BEFORE_SECONDS)
        .append(" seconds before it began. Fail-over: from the first to the last second in which a")
        .append(" request not injected to fail was stalled after the fault began (it waited over ")
        .append(Numbers.number(FaultWindows.STALL_FLOOR_MS / 1000))
        .append(" s and ")
        .append(Numbers.number(FaultWindows.STALL_FACTOR))
        .append(" times that p99: a write waiting for a new leader).</p>\n")
        .append("<table><tr><th>fault</th><th>from</th><th>to</th><th>outcome</th>")
        .append("<th>fail-over</th><th>recovery</th></tr>\n");
    for (FaultWindows f : faults) {
      h.append("<tr class=\"fault\"><td class=\"text\">")
          .append(escape(f.label()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%+.1f s", f.fromSeconds()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%+.1f s", f.toSeconds()))
          .append("</td><td class=\"text\">")
          .append(escape(f.outcome()))
          .append("</td><td>")
          .append(escape(f.failoverText()))
          .append("</td><td>")
          .append(escape(f.recoveryText()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }
}
