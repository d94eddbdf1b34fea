package io.fusillade.reports.html;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names the report's legends give the run record's gauges: what a reader calls them ("CPU steal
 * %", "injector memory (RSS)"), not the record's keys ({@code system.cpu.steal}). A gauge this
 * class does not know keeps its key.
 */
final class GaugeNames {
  private static final Map<String, String> FIXED =
      Map.ofEntries(
          Map.entry("system.cpu.user", "CPU user %"),
          Map.entry("system.cpu.system", "CPU system %"),
          Map.entry("system.cpu.iowait", "CPU I/O wait %"),
          Map.entry("system.cpu.steal", "CPU steal %"),
          Map.entry("system.cpu.idle", "CPU idle %"),
          Map.entry("system.cpu.busy", "CPU busy %"),
          Map.entry("system.load1", "load average, 1 min"),
          Map.entry("system.memory.used", "memory used"),
          Map.entry("system.memory.available", "memory available"),
          Map.entry("system.disk.read", "disk read"),
          Map.entry("system.disk.write", "disk write"),
          Map.entry("system.net.rx", "network received"),
          Map.entry("system.net.tx", "network sent"),
          Map.entry("system.net.lo.rx", "loopback received"),
          Map.entry("system.net.lo.tx", "loopback sent"));
  private static final Pattern CORE = Pattern.compile("system\\.cpu\\.(\\d+)\\.(\\w+)");
  private static final Pattern PROCESS = Pattern.compile("process\\.(.+)\\.(cpu|rss)");
  private static final Pattern TOPIC_LAG = Pattern.compile("topic\\.(.+)\\.lag");
  private static final Pattern SERVER = Pattern.compile("server\\.[^.]+\\.(.+)");
  private static final Pattern CONTAINER = Pattern.compile("container\\.(.+)\\.(cpu|memory)");

  private GaugeNames() {}

  /**
   * The legend of a gauge.
   *
   * @param gauge its name in the record
   * @return its name for a reader
   */
  static String of(String gauge) {
    String fixed = FIXED.get(gauge);
    if (fixed != null) {
      return fixed;
    }
    Matcher m = CORE.matcher(gauge);
    if (m.matches()) {
      return "core " + m.group(1) + " " + m.group(2) + " %";
    }
    m = PROCESS.matcher(gauge);
    if (m.matches()) {
      return m.group(1) + (m.group(2).equals("cpu") ? " CPU" : " memory (RSS)");
    }
    if (gauge.startsWith("topic.producer.throttle.")) {
      return "throttle " + gauge.substring("topic.producer.throttle.".length());
    }
    if (gauge.startsWith("directory.") && gauge.endsWith(".bytes")) {
      return gauge.substring("directory.".length(), gauge.length() - ".bytes".length());
    }
    if (gauge.startsWith("directory.") && gauge.endsWith(".use")) {
      return gauge.substring("directory.".length(), gauge.length() - ".use".length()) + " disk";
    }
    m = SERVER.matcher(gauge);
    if (m.matches()) {
      // a server's gauges read as the injector's machine's; its name is in the chart's title
      String own = m.group(1);
      String asSystem = FIXED.get("system." + own);
      if (asSystem != null) {
        return asSystem;
      }
      Matcher c = CONTAINER.matcher(own);
      if (c.matches()) {
        return c.group(1);
      }
      if (own.startsWith("filesystem.")) {
        return "filesystem " + own.substring("filesystem.".length());
      }
      return own.startsWith("metric.") ? own.substring("metric.".length()) : own;
    }
    m = TOPIC_LAG.matcher(gauge);
    if (m.matches()) {
      return "topic " + m.group(1);
    }
    if (gauge.startsWith("lag.")) {
      return gauge.substring("lag.".length());
    }
    return gauge;
  }
}
