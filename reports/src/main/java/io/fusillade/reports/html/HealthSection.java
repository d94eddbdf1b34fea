package io.fusillade.reports.html;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.record.RunRecord;
import io.fusillade.reports.format.Numbers;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The report's "Health" table: each injector's {@code health} entries of {@code run.json} as rows
 * of what was measured, its value, a verdict and what it means — the injector lag (how late the
 * load generator's timers ran: its p99 above the threshold makes latencies untrustworthy) and the
 * machine's CPU busy and steal. Entries it does not know are listed plainly ({@code key: value},
 * nested entries flattened), except {@code delivery} of topics, which has a section of its own.
 */
final class HealthSection {
  /** Health entries presented elsewhere in the report (topic delivery). */
  private static final List<String> ELSEWHERE = List.of("delivery");

  /** The entries presented with a verdict and a meaning. */
  private static final List<String> KNOWN = List.of("injectorLag", "system", "servers");

  private HealthSection() {}

  /** One row. */
  private record Row(String what, String value, String verdict, boolean bad, String meaning) {}

  static void render(StringBuilder h, List<RunRecord> injectors) {
    List<String[]> rows = new ArrayList<>();
    boolean several = injectors.size() > 1;
    for (RunRecord r : injectors) {
      // what the report knows how to judge first, the rest after, each in run.json's order
      List<Map.Entry<String, Object>> entries = new ArrayList<>(r.manifest().health().entrySet());
      entries.sort(Comparator.comparingInt(e -> KNOWN.contains(e.getKey()) ? 0 : 1));
      for (Map.Entry<String, Object> e : entries) {
        for (Row row : rows(e.getKey(), e.getValue())) {
          rows.add(
              new String[] {
                r.manifest().runId(),
                row.what(),
                row.value(),
                row.verdict(),
                // UNKNOWN (too few samples to judge) is no pass: no colour
                row.bad()
                    ? "fail"
                    : row.verdict().isEmpty() || row.verdict().equals("UNKNOWN") ? "" : "pass",
                row.meaning()
              });
        }
      }
    }
    if (rows.isEmpty()) {
      return;
    }
    h.append("<h2>Health</h2>\n<table class=\"health text\"><tr>");
    if (several) {
      h.append("<th>injector</th>");
    }
    h.append("<th>what</th><th>value</th><th>verdict</th><th>meaning</th></tr>\n");
    for (String[] row : rows) {
      h.append("<tr>");
      if (several) {
        h.append("<td>").append(escape(row[0])).append("</td>");
      }
      h.append("<td>")
          .append(escape(row[1]))
          .append("</td><td class=\"text\">")
          .append(escape(row[2]))
          .append("</td><td class=\"")
          .append(row[4].isEmpty() ? "text" : row[4])
          .append("\">")
          .append(escape(row[3]))
          .append("</td><td class=\"text\">")
          .append(escape(row[5]))
          .append("</td></tr>\n");
    }
    h.append("</table>\n");
  }

  private static List<Row> rows(String key, Object value) {
    if (key.equals("injectorLag") && value instanceof Map<?, ?> lag) {
      return List.of(injectorLag(lag));
    }
    if (key.equals("system") && value instanceof Map<?, ?> system) {
      return system(system);
    }
    if (key.equals("servers") && value instanceof Map<?, ?> servers) {
      return servers(servers);
    }
    if (key.startsWith("topic.")
        && value instanceof Map<?, ?> topic
        && topic.containsKey("lagTrend")) {
      return List.of(topic(key.substring("topic.".length()), topic));
    }
    return List.of(new Row(key, words(value), "", false, ""));
  }

  /**
   * A topic's consumers in words: how many on how many partitions, the consumer lag's trend while
   * the load ran (with the numbers its verdict read and the rule), and whether they read up to the
   * end before the drain timeout. Its delivery counts have their own table.
   */
  private static Row topic(String name, Map<?, ?> topic) {
    StringBuilder value = new StringBuilder();
    if (topic.get("consumers") instanceof Number consumers) {
      value.append(format(consumers.doubleValue())).append(" consumers");
      if (topic.get("partitions") instanceof Number partitions) {
        value.append(" on ").append(format(partitions.doubleValue())).append(" partitions");
      }
      value.append("; ");
    }
    String verdict = "";
    boolean bad = false;
    if (topic.get("lagTrend") instanceof Map<?, ?> trend) {
      verdict = String.valueOf(trend.get("verdict"));
      bad = verdict.equals("growing");
      value.append("consumer lag while the load ran: ").append(verdict);
      if (trend.get("slopePerSecond") instanceof Number slope) {
        value
            .append(" (slope ")
            .append(format(slope.doubleValue()))
            .append(" messages/s, p=")
            .append(format(number(trend.get("pValue"))))
            .append(", over ")
            .append(format(number(trend.get("samples"))))
            .append(" seconds)");
      } else if (trend.get("samples") instanceof Number samples) {
        value
            .append(" (")
            .append(format(samples.doubleValue()))
            .append(" seconds: too few to judge)");
      }
      if (trend.get("thresholdPerSecond") instanceof Number threshold) {
        value
            .append("; growing means a slope above ")
            .append(format(threshold.doubleValue()))
            .append(" messages/s with p below 0.01, over the second half of the load");
      }
    }
    if (topic.get("drained") instanceof Boolean drained) {
      value.append(
          drained
              ? "; the consumers read up to the end before the drain timeout"
              : "; the consumers did NOT read up to the end before the drain timeout");
      bad |= !drained;
    }
    String rest = others(topic, "consumers", "partitions", "lagTrend", "drained");
    return new Row(
        "topic " + name,
        value + rest,
        verdict.equals("flat") ? "OK" : verdict.toUpperCase(java.util.Locale.ROOT),
        bad,
        "whether the readers kept up: a lag that grows means they fall behind the writers");
  }

  private static Row injectorLag(Map<?, ?> lag) {
    double threshold = number(lag.get("thresholdMs"));
    boolean saturated = Boolean.TRUE.equals(lag.get("saturated"));
    StringBuilder value =
        new StringBuilder("p99 ")
            .append(ms(lag.get("p99Ms")))
            .append(", p50 ")
            .append(ms(lag.get("p50Ms")))
            .append(", max ")
            .append(ms(lag.get("maxMs")))
            .append(" over ")
            .append(format(number(lag.get("ticks"))))
            .append(" ticks");
    if (lag.get("lateTicks") instanceof Number late) {
      value
          .append(", ")
          .append(format(late.doubleValue()))
          .append(" later than ")
          .append(ms(threshold));
      if (lag.get("eventLoops") instanceof Number loops) {
        value.append(" (").append(format(loops.doubleValue())).append(" event loops)");
      }
    }
    if (lag.get("warmUpMs") instanceof Number warmUp && warmUp.doubleValue() > 0) {
      value
          .append("; the first ")
          .append(format(warmUp.doubleValue() / 1000))
          .append(" s left out as the JVM's warm-up");
    }
    return new Row(
        "injector lag",
        value
            + others(
                lag,
                "p99Ms",
                "p50Ms",
                "maxMs",
                "ticks",
                "thresholdMs",
                "saturated",
                "lateTicks",
                "eventLoops",
                "warmUpMs"),
        saturated ? "SATURATED" : "OK",
        saturated,
        "how late the load generator's own timer ran; a p99 above "
            + ms(threshold)
            + " with at least 2 late ticks per event loop means it could not keep to its schedule"
            + " and the latencies are not trustworthy");
  }

  private static List<Row> system(Map<?, ?> system) {
    List<Row> rows = new ArrayList<>();
    String source = " (from " + system.get("source") + ", " + system.get("samples") + " samples)";
    if (system.containsKey("cpuBusyAvgPercent")) {
      rows.add(
          new Row(
              "CPU busy, whole machine",
              "average " + percent(system.get("cpuBusyAvgPercent")) + source,
              "",
              false,
              "near 100% the injector and the system under test compete for the CPU"));
    }
    if (system.containsKey("cpuStealAvgPercent")) {
      boolean starved = Boolean.TRUE.equals(system.get("starved"));
      rows.add(
          new Row(
              "CPU steal",
              "average "
                  + percent(system.get("cpuStealAvgPercent"))
                  + ", max "
                  + percent(system.get("cpuStealMaxPercent")),
              starved ? "STARVED" : "OK",
              starved,
              "CPU time the hypervisor gave to other machines; an average above "
                  + percent(system.get("stealThresholdPercent"))
                  + " means the numbers come from a starved machine"));
    }
    String rest =
        others(
            system,
            "source",
            "samples",
            "cpuBusyAvgPercent",
            "cpuStealAvgPercent",
            "cpuStealMaxPercent",
            "stealThresholdPercent",
            "starved");
    if (!rest.isEmpty()) {
      rows.add(new Row("system", rest.substring(2), "", false, ""));
    }
    return rows;
  }

  /** A row per server whose metrics were scraped: how many scrapes answered, and why not. */
  private static List<Row> servers(Map<?, ?> servers) {
    List<Row> rows = new ArrayList<>();
    servers.forEach(
        (name, v) -> {
          if (!(v instanceof Map<?, ?> server)) {
            return;
          }
          double answered = number(server.get("answered"));
          double failed = number(server.get("failed"));
          boolean none = !(answered > 0);
          String exporter = String.valueOf(server.get("exporter"));
          rows.add(
              new Row(
                  "server " + name + " metrics",
                  server.get("url")
                      + (exporter.isEmpty() || exporter.equals("null") ? "" : " (" + exporter + ")")
                      + ": "
                      + format(answered)
                      + " scrapes answered, "
                      + format(failed)
                      + " failed"
                      + others(server, "url", "exporter", "answered", "failed"),
                  none ? "NO DATA" : failed > 0 ? "GAPS" : "OK",
                  none,
                  "the server's own CPU, memory, disk and network, scraped once a second; a failed"
                      + " scrape leaves that second empty"));
        });
    return rows;
  }

  /** The entries of {@code map} not named, as {@code "; key: value, ..."}; empty when none. */
  private static String others(Map<?, ?> map, String... known) {
    StringBuilder out = new StringBuilder();
    List<String> skip = List.of(known);
    map.forEach(
        (k, v) -> {
          if (!skip.contains(String.valueOf(k)) && !ELSEWHERE.contains(String.valueOf(k))) {
            out.append(out.length() == 0 ? "; " : ", ")
                .append(spoken(String.valueOf(k)))
                .append(' ')
                .append(words(v));
          }
        });
    return out.toString();
  }

  /**
   * A value as plain text: maps as {@code key: value, ...}, lists one element after the other
   * separated by {@code " | "}; {@code delivery} left out.
   */
  static String plain(Object value) {
    return plain(value, false);
  }

  private static String plain(Object value, boolean nested) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder();
      map.forEach(
          (k, v) -> {
            if (!ELSEWHERE.contains(String.valueOf(k))) {
              out.append(out.length() == 0 ? "" : ", ")
                  .append(k)
                  .append(": ")
                  .append(plain(v, true));
            }
          });
      return nested && map.size() > 1 ? "(" + out + ")" : out.toString();
    }
    if (value instanceof List<?> list) {
      StringBuilder out = new StringBuilder();
      for (Object o : list) {
        out.append(out.length() == 0 ? "" : " | ").append(plain(o, nested));
      }
      return out.toString();
    }
    if (value instanceof Double d) {
      return format(d);
    }
    return String.valueOf(value);
  }

  /**
   * A health value in words, for entries the table has no row of its own for: a mapping as "{@code
   * slope per second 0.2, not growing yes}" (camelCase keys split into words, booleans as yes or
   * no), a list one item after the other; never braces or {@code key: value} pairs.
   */
  static String words(Object value) {
    if (value instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder();
      map.forEach(
          (k, v) -> {
            if (!ELSEWHERE.contains(String.valueOf(k))) {
              out.append(out.length() == 0 ? "" : ", ")
                  .append(spoken(String.valueOf(k)))
                  .append(' ')
                  .append(words(v));
            }
          });
      return out.toString();
    }
    if (value instanceof List<?> list) {
      StringBuilder out = new StringBuilder();
      for (Object o : list) {
        out.append(out.length() == 0 ? "" : "; ").append(words(o));
      }
      return out.toString();
    }
    if (value instanceof Boolean b) {
      return b ? "yes" : "no";
    }
    if (value instanceof Number n) {
      return format(n.doubleValue());
    }
    if (value == null) {
      return "none";
    }
    return String.valueOf(value);
  }

  /** {@code slopePerSecond} as {@code slope per second}; other text as it is. */
  private static String spoken(String key) {
    return key.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
  }

  private static String ms(Object value) {
    return format(number(value)) + " ms";
  }

  private static String percent(Object value) {
    return format(number(value)) + "%";
  }

  /** Three significant digits, trailing zeros dropped: 20 ms, not 20.0 ms. */
  private static String format(double value) {
    String s = Numbers.number(value);
    return s.matches("-?\\d+\\.\\d+") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  private static double number(Object value) {
    return value instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
