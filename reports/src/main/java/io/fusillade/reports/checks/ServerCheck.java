package io.fusillade.reports.checks;

import io.fusillade.record.SettingValues;
import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code server cpu.steal < 5%}, {@code server max filesystem.use < 90% for kafka1}, {@code system
 * cpu.steal < 5%}: a gauge of the servers under test ({@code server.<name>.<gauge>}, recorded from
 * their exporters) or of the injector's machine ({@code system.<gauge>}), averaged over the run's
 * seconds (or its maximum with {@code max}). Without {@code for}, every server that has the gauge
 * must hold; a run with none fails, since nothing shows the servers were watched.
 *
 * @param text the check as written
 * @param machine {@code server} or {@code system}
 * @param max true for the maximum, false for the mean
 * @param gauge the gauge without its prefix, e.g. {@code cpu.steal}
 * @param comparator the comparison
 * @param limit the limit, in the gauge's own unit
 * @param unit the unit as written, for messages ({@code %}, {@code GB}...)
 * @param server the one server checked, or null for all
 */
record ServerCheck(
    String text,
    String machine,
    boolean max,
    String gauge,
    Comparator comparator,
    double limit,
    String unit,
    String server)
    implements Check {

  @Override
  public CheckResult evaluate(RunData run) {
    List<String> parts = new ArrayList<>();
    boolean passed = true;
    for (Map.Entry<String, double[]> e : run.gauges().entrySet()) {
      String name = e.getKey();
      String who = owner(name);
      if (who == null) {
        continue;
      }
      double[] values = Arrays.stream(e.getValue()).filter(Double::isFinite).toArray();
      if (values.length == 0) {
        continue;
      }
      double measured =
          max
              ? Arrays.stream(values).max().getAsDouble()
              : Arrays.stream(values).average().getAsDouble();
      boolean holds = comparator.holds(measured, limit);
      passed &= holds;
      parts.add((who.isEmpty() ? "" : who + " ") + shown(measured) + (holds ? "" : " (fails)"));
    }
    String what = (max ? "max " : "mean ") + gauge;
    if (parts.isEmpty()) {
      String none = "no " + machine + " gauge " + gauge + (server == null ? "" : " of " + server);
      return CheckResult.of(
          text,
          false,
          none,
          none
              + ": nothing measured, nothing met; "
              + (machine.equals("server")
                  ? "record the server's metrics with --monitor NAME=URL or a monitor: entry"
                  : "the injector's machine gauges are missing"));
    }
    String measured = what + ": " + String.join(", ", parts);
    String rule =
        (max ? "the largest" : "the mean")
            + " over the run's seconds of "
            + (machine.equals("server")
                ? (server == null ? "every server's" : "server " + server + "'s")
                    + " gauge server.NAME."
                    + gauge
                : "the injector machine's gauge system." + gauge)
            + " must be "
            + comparator.words
            + " "
            + shown(limit);
    return CheckResult.of(text, passed, measured, measured + "; " + rule);
  }

  /** The server a gauge belongs to ("" for the injector's machine), or null when not checked. */
  private String owner(String name) {
    if (machine.equals("system")) {
      return name.equals("system." + gauge) ? "" : null;
    }
    String suffix = "." + gauge;
    if (!name.startsWith("server.") || !name.endsWith(suffix)) {
      return null;
    }
    String who = name.substring("server.".length(), name.length() - suffix.length());
    if (who.isEmpty() || who.contains(".") || server != null && !server.equals(who)) {
      return null; // server names have no dot: container.x.cpu is not a server's cpu
    }
    return who;
  }

  private String shown(double value) {
    double factor = ServerCheck.factor(unit);
    return Numbers.number(value / factor) + (unit.isEmpty() ? "" : " " + unit);
  }

  /** What one of {@code unit} is in the gauges' own units (bytes for sizes), or NaN. */
  static double factor(String unit) {
    String u = unit.replace("/s", "");
    return u.isEmpty() || u.equals("%") ? 1 : SettingValues.bytesPerUnit(u);
  }
}
