package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.record.Injected;
import io.fusillade.record.Latencies;
import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.InjectionPeriods;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Fault injection in the HTML report: the workload's own requests and each injected kind side by
 * side (count, KO share, p50, p99, the server's reasons), so that the effect of the bad requests on
 * the good ones reads at a glance; the time charts show both second by second. When the injection
 * covers only part of the run, a second table shows the workload's own requests before, during and
 * after it ({@link InjectionPeriods}), and the time charts shade it. Nothing for a run without
 * injected requests.
 */
final class InjectedSection {
  private InjectedSection() {}

  static void render(StringBuilder h, RunData run) {
    List<RequestTotals> injected =
        run.requests().values().stream()
            .filter(t -> Injected.is(t.name()))
            .sorted(Comparator.comparing(RequestTotals::name))
            .toList();
    if (injected.isEmpty()) {
      return;
    }
    Histogram goodOk = Latencies.newHistogram();
    Histogram goodKo = Latencies.newHistogram();
    Map<String, Long> goodErrors = new java.util.TreeMap<>();
    for (RequestTotals t : run.requests().values()) {
      if (!Injected.is(t.name())) {
        goodOk.add(t.ok());
        goodKo.add(t.ko());
        t.errors().forEach((reason, n) -> goodErrors.merge(reason, n, Long::sum));
      }
    }
    h.append("<h2 id=\"injected\">Injected requests</h2>\n<p class=\"note\">Requests sent to fail")
        .append(" on purpose, beside the workload's own: they are left out of the error and")
        .append(" latency checks unless a check names them.</p>\n")
        .append("<table class=\"text\"><tr><th>requests</th><th>count</th><th>KO</th>")
        .append("<th>p50 ms</th><th>p99 ms</th><th>reasons</th></tr>\n");
    row(h, "the workload's own", goodOk, goodKo, goodErrors);
    for (RequestTotals t : injected) {
      row(h, t.name(), t.ok(), t.ko(), t.errors());
    }
    h.append("</table>\n");
    periods(h, InjectionPeriods.of(run));
  }

  /**
   * The good requests before, during and after the injection; nothing when it spans the whole run
   * (the table above already says it all).
   */
  private static void periods(StringBuilder h, List<InjectionPeriods> periods) {
    if (!InjectionPeriods.windowed(periods)) {
      return;
    }
    h.append("<p><b>The workload's own requests before, during and after the injected requests")
        .append("</b> (during: from the first to the last second in which an injected request was")
        .append(" sent; OK and KO, latency at 1% resolution)</p>\n<table id=\"injected-periods\">")
        .append("<tr><th>period</th><th>seconds</th><th>requests</th>")
        .append("<th>KO</th><th>p50 ms</th><th>p99 ms</th></tr>\n");
    for (InjectionPeriods p : periods) {
      h.append("<tr><td>")
          .append(escape(p.period()))
          .append("</td><td>")
          .append(escape(p.secondsText()))
          .append("</td><td>")
          .append(p.requests())
          .append("</td><td>")
          .append(Numbers.percent(p.koPercent() / 100))
          .append("</td><td>")
          .append(Numbers.number(p.p50Ms()))
          .append("</td><td>")
          .append(Numbers.number(p.p99Ms()))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static void row(
      StringBuilder h, String name, Histogram ok, Histogram ko, Map<String, Long> errors) {
    Histogram all = Latencies.newHistogram();
    all.add(ok);
    all.add(ko);
    long count = all.getTotalCount();
    List<String> reasons = new ArrayList<>();
    errors.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(3)
        .forEach(e -> reasons.add(e.getValue() + " × " + e.getKey()));
    h.append("<tr><td>")
        .append(escape(name))
        .append("</td><td>")
        .append(count)
        .append("</td><td>")
        .append(count == 0 ? "" : Numbers.number(100.0 * ko.getTotalCount() / count) + "%")
        .append("</td><td>")
        .append(count == 0 ? "" : Numbers.number(all.getValueAtPercentile(50) / 1000.0))
        .append("</td><td>")
        .append(count == 0 ? "" : Numbers.number(all.getValueAtPercentile(99) / 1000.0))
        .append("</td><td class=\"text\">")
        .append(escape(String.join("; ", reasons)))
        .append("</td></tr>\n");
  }
}
