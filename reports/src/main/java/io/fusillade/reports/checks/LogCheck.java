package io.fusillade.reports.checks;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code server log warning < 10}, {@code server log could_not_send <= 0 for postgres}: the lines
 * of a server's log that matched a named pattern of a {@code logs:} monitor source over the whole
 * run, the sum of its per-second gauge {@code server.<name>.log.<pattern>}. Without {@code for},
 * every log source with that pattern must hold; a run with none fails, since nothing shows the log
 * was read.
 *
 * @param text the check as written
 * @param pattern the pattern's name
 * @param comparator the comparison
 * @param limit the most (or least) lines
 * @param server the one log source checked, or null for all
 */
record LogCheck(String text, String pattern, Comparator comparator, double limit, String server)
    implements Check {

  /**
   * The run's totals of the pattern per log source, from {@code health.logs} of {@code run.json}
   * (exact: the seconds' gauges may miss the lines of the run's last moment).
   */
  private Map<String, Long> totals(RunData run) {
    Map<String, Long> totals = new java.util.TreeMap<>();
    if (run.manifest().health().get("logs") instanceof Map<?, ?> sources) {
      sources.forEach(
          (name, source) -> {
            if (source instanceof Map<?, ?> s
                && s.get("lines") instanceof Map<?, ?> lines
                && lines.get(pattern) instanceof Number n) {
              totals.put(String.valueOf(name), n.longValue());
            }
          });
    }
    return totals;
  }

  @Override
  public CheckResult evaluate(RunData run) {
    List<String> parts = new ArrayList<>();
    boolean passed = true;
    String suffix = ".log." + pattern;
    Map<String, Long> totals = totals(run);
    for (Map.Entry<String, Long> e : totals.entrySet()) {
      if (server != null && !server.equals(e.getKey())) {
        continue;
      }
      boolean holds = comparator.holds(e.getValue(), limit);
      passed &= holds;
      parts.add(e.getKey() + " " + e.getValue() + (holds ? "" : " (fails)"));
    }
    for (Map.Entry<String, double[]> e : run.gauges().entrySet()) {
      String name = e.getKey();
      if (!name.startsWith("server.") || !name.endsWith(suffix)) {
        continue;
      }
      String who = name.substring("server.".length(), name.length() - suffix.length());
      if (who.isEmpty()
          || who.contains(".")
          || server != null && !server.equals(who)
          || totals.containsKey(who)) {
        continue;
      }
      // per-second counts of a one-second recorder: their sum is the run's lines
      double lines = Math.round(Arrays.stream(e.getValue()).filter(Double::isFinite).sum());
      boolean holds = comparator.holds(lines, limit);
      passed &= holds;
      parts.add(who + " " + (long) lines + (holds ? "" : " (fails)"));
    }
    if (parts.isEmpty()) {
      String none = "no server log pattern " + pattern + (server == null ? "" : " of " + server);
      return CheckResult.of(
          text,
          false,
          none,
          none
              + ": nothing counted, nothing met; name the pattern in a monitor entry's logs"
              + " source (monitor: - name: postgres, logs: embedded, patterns: {"
              + pattern
              + ": \"WARNING\"})");
    }
    String measured = "log lines matching " + pattern + ": " + String.join(", ", parts);
    String rule =
        "the lines of "
            + (server == null ? "every server's" : "server " + server + "'s")
            + " log matching its pattern "
            + pattern
            + ", counted over the whole run, must be "
            + comparator.words
            + " "
            + (limit == Math.rint(limit) ? String.valueOf((long) limit) : Numbers.number(limit));
    return CheckResult.of(text, passed, measured, measured + "; " + rule);
  }
}
