package io.fusillade.system;

import io.fusillade.system.PrometheusText.Scrape;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Turns two successive scrapes of one {@link ServerTarget} into the values of its gauges (names
 * without the {@code server.<name>.} prefix): counters become rates over the time between the
 * scrapes, the way Prometheus' {@code rate()} does, and CPU seconds become shares of the CPU time
 * that passed, as {@link SystemSampler} computes them for the injector's machine, so that the two
 * read alike. A counter that went down (the exporter restarted) gives no value for that second.
 */
final class ServerMetrics {
  private ServerMetrics() {}

  /** The exporters recognised by their metrics. */
  static final String NODE = "node";

  static final String CADVISOR = "cadvisor";

  private static final String NODE_CPU = "node_cpu_seconds_total";
  private static final String CADVISOR_CPU = "container_cpu_usage_seconds_total";
  private static final Set<String> USER = Set.of("user", "nice");
  private static final Set<String> SYSTEM = Set.of("system", "irq", "softirq");

  /**
   * The exporters a scrape comes from, by the metrics it serves.
   *
   * @param scrape a scrape
   * @return {@value #NODE}, {@value #CADVISOR}, both or none
   */
  static Set<String> kinds(Scrape scrape) {
    boolean node = scrape.has(NODE_CPU) || scrape.has("node_memory_MemTotal_bytes");
    boolean cadvisor = scrape.has(CADVISOR_CPU);
    if (node && cadvisor) {
      return Set.of(NODE, CADVISOR);
    }
    return node ? Set.of(NODE) : cadvisor ? Set.of(CADVISOR) : Set.of();
  }

  /**
   * The gauges' values.
   *
   * @param target what is recorded
   * @param before the previous scrape, or null for the first one (then only levels, no rates)
   * @param now this scrape
   * @return values by gauge name, without the target's prefix
   */
  static Map<String, Double> values(ServerTarget target, Scrape before, Scrape now) {
    Map<String, Double> values = new LinkedHashMap<>();
    double seconds = before == null ? Double.NaN : (now.nanos() - before.nanos()) / 1e9;
    boolean rates = seconds > 0;
    if (rates) {
      cpu(before, now, values);
    }
    put(values, "load1", now.sum("node_load1", l -> true));
    double total = now.sum("node_memory_MemTotal_bytes", l -> true);
    double available = now.sum("node_memory_MemAvailable_bytes", l -> true);
    put(values, "memory.used", total - available);
    put(values, "memory.available", available);
    if (rates) {
      rate(values, "disk.read", before, now, "node_disk_read_bytes_total", seconds, true);
      rate(values, "disk.write", before, now, "node_disk_written_bytes_total", seconds, true);
      rate(values, "net.rx", before, now, "node_network_receive_bytes_total", seconds, false);
      rate(values, "net.tx", before, now, "node_network_transmit_bytes_total", seconds, false);
    }
    filesystem(target.filesystem(), now, values);
    containers(before, now, seconds, values);
    for (String metric : target.metrics()) {
      double value = now.sum(metric, l -> true);
      if (now.counter(metric)) {
        double previous = before == null ? Double.NaN : before.sum(metric, l -> true);
        value = rates && value >= previous ? (value - previous) / seconds : Double.NaN;
      }
      put(values, "metric." + metric, value);
    }
    return values;
  }

  /** CPU shares by mode over all cores: user with nice, system with irq and softirq. */
  private static void cpu(Scrape before, Scrape now, Map<String, Double> values) {
    Map<String, Double> a = before.sumBy(NODE_CPU, "mode");
    Map<String, Double> b = now.sumBy(NODE_CPU, "mode");
    double total = 0;
    Map<String, Double> delta = new LinkedHashMap<>();
    for (Map.Entry<String, Double> e : b.entrySet()) {
      Double old = a.get(e.getKey());
      if (old == null || e.getValue() < old) {
        return;
      }
      double d = e.getValue() - old;
      String group =
          USER.contains(e.getKey()) ? "user" : SYSTEM.contains(e.getKey()) ? "system" : e.getKey();
      delta.merge(group, d, Double::sum);
      total += d;
    }
    if (total <= 0) {
      return;
    }
    for (String mode : new String[] {"user", "system", "iowait", "steal", "idle"}) {
      values.put("cpu." + mode, 100 * delta.getOrDefault(mode, 0.0) / total);
    }
  }

  /** Bytes per second of a counter per device, loopback (network) or partitions (disk) apart. */
  private static void rate(
      Map<String, Double> values,
      String gauge,
      Scrape before,
      Scrape now,
      String metric,
      double seconds,
      boolean disk) {
    if (disk) {
      double a = before.sum(metric, l -> wholeDisk(l));
      double b = now.sum(metric, l -> wholeDisk(l));
      putRate(values, gauge, a, b, seconds);
      return;
    }
    double a = before.sum(metric, l -> !"lo".equals(l.get("device")));
    double b = now.sum(metric, l -> !"lo".equals(l.get("device")));
    putRate(values, gauge, a, b, seconds);
    String lo = gauge.replace("net.", "net.lo.");
    putRate(
        values,
        lo,
        before.sum(metric, l -> "lo".equals(l.get("device"))),
        now.sum(metric, l -> "lo".equals(l.get("device"))),
        seconds);
  }

  /** A whole disk: node_exporter also serves device-mapper, md and partitions, counted twice. */
  private static boolean wholeDisk(Map<String, String> labels) {
    String device = labels.get("device");
    return device != null && !device.startsWith("md") && ProcParser.looksLikeWholeDisk(device);
  }

  private static void putRate(
      Map<String, Double> values, String gauge, double a, double b, double seconds) {
    if (Double.isFinite(a) && Double.isFinite(b) && b >= a) {
      values.put(gauge, (b - a) / seconds);
    }
  }

  /** Use of one mount point: used as {@code df} counts it (size minus free), available to users. */
  private static void filesystem(String mountPoint, Scrape now, Map<String, Double> values) {
    double size =
        now.sum("node_filesystem_size_bytes", l -> mountPoint.equals(l.get("mountpoint")));
    double free =
        now.sum("node_filesystem_free_bytes", l -> mountPoint.equals(l.get("mountpoint")));
    double avail =
        now.sum("node_filesystem_avail_bytes", l -> mountPoint.equals(l.get("mountpoint")));
    if (!Double.isFinite(size) || !Double.isFinite(avail)) {
      return;
    }
    double used = size - (Double.isFinite(free) ? free : avail);
    values.put("filesystem.used", used);
    values.put("filesystem.available", avail);
    if (used + avail > 0) {
      values.put("filesystem.use", 100 * used / (used + avail));
    }
  }

  /** cAdvisor: CPU (% of one core) and working set per named container. */
  private static void containers(
      Scrape before, Scrape now, double seconds, Map<String, Double> values) {
    if (!now.has(CADVISOR_CPU)) {
      return;
    }
    Map<String, Double> cpuNow = now.sumBy(CADVISOR_CPU, "name");
    Map<String, Double> cpuBefore = before == null ? Map.of() : before.sumBy(CADVISOR_CPU, "name");
    cpuNow.forEach(
        (name, cpu) -> {
          Double old = cpuBefore.get(name);
          if (seconds > 0 && old != null && cpu >= old) {
            values.put("container." + name + ".cpu", 100 * (cpu - old) / seconds);
          }
        });
    now.sumBy("container_memory_working_set_bytes", "name")
        .forEach((name, bytes) -> values.put("container." + name + ".memory", bytes));
  }

  private static void put(Map<String, Double> values, String gauge, double value) {
    if (Double.isFinite(value)) {
      values.put(gauge, value);
    }
  }
}
