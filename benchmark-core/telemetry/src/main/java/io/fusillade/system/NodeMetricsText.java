package io.fusillade.system;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The machine's counters from {@code /proc}, written in the Prometheus text format under {@code
 * node_exporter}'s names and units, for {@code fusillade agent}: a host without an exporter then
 * serves what {@link ServerScraper} reads from {@code node_exporter}, and what {@link
 * SystemSampler} records of the injector's own machine. Counters are cumulative, as an exporter
 * serves them; the scraper makes the rates.
 *
 * <p>Served: {@code node_cpu_seconds_total{cpu,mode}}, {@code node_load1}, {@code
 * node_memory_MemTotal_bytes}, {@code node_memory_MemAvailable_bytes}, {@code
 * node_disk_read_bytes_total} and {@code node_disk_written_bytes_total} per whole disk, {@code
 * node_network_receive_bytes_total} and {@code node_network_transmit_bytes_total} per interface,
 * and {@code node_filesystem_size_bytes|free_bytes|avail_bytes} per mount point asked for. A file
 * that cannot be read leaves its metrics out of that answer.
 */
public final class NodeMetricsText {
  /** Linux's USER_HZ, the unit of {@code /proc/stat}: 100 on every architecture it runs on. */
  private static final double TICKS_PER_SECOND = 100;

  private static final String[] MODES = {
    "user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal"
  };

  private final Path procRoot;
  private final Predicate<String> disk;
  private final List<Path> filesystems;

  /**
   * @param procRoot {@code /proc}, or another directory in tests
   * @param sysBlock {@code /sys/block}, to tell whole disks apart
   * @param filesystems the mount points (or any path on them) whose use is served
   */
  public NodeMetricsText(Path procRoot, Path sysBlock, List<Path> filesystems) {
    this.procRoot = procRoot;
    List<String> disks = ProcParser.physicalDisks(sysBlock);
    this.disk =
        disks.isEmpty() ? ProcParser::looksLikeWholeDisk : java.util.Set.copyOf(disks)::contains;
    this.filesystems = List.copyOf(filesystems);
  }

  /**
   * The metrics now.
   *
   * @return the text to serve on {@code /metrics}
   */
  public String render() {
    StringBuilder out = new StringBuilder(4096);
    cpu(out);
    try {
      type(out, "node_load1", "gauge");
      out.append("node_load1 ").append(ProcParser.load1(procRoot.resolve("loadavg"))).append('\n');
    } catch (IOException | RuntimeException e) {
      // left out this time
    }
    try {
      long[] memory = ProcParser.memory(procRoot.resolve("meminfo"));
      type(out, "node_memory_MemTotal_bytes", "gauge");
      out.append("node_memory_MemTotal_bytes ").append(memory[0]).append('\n');
      type(out, "node_memory_MemAvailable_bytes", "gauge");
      out.append("node_memory_MemAvailable_bytes ").append(memory[1]).append('\n');
    } catch (IOException | RuntimeException e) {
      // left out this time
    }
    disks(out);
    network(out);
    filesystems(out);
    return out.toString();
  }

  private void cpu(StringBuilder out) {
    List<String> lines;
    try {
      lines = Files.readAllLines(procRoot.resolve("stat"));
    } catch (IOException e) {
      return;
    }
    type(out, "node_cpu_seconds_total", "counter");
    for (String line : lines) {
      if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
        continue; // per core only, as node_exporter serves it
      }
      String[] f = line.trim().split("\\s+");
      String core = f[0].substring(3);
      for (int i = 0; i < MODES.length && i + 1 < f.length; i++) {
        out.append("node_cpu_seconds_total{cpu=\"")
            .append(core)
            .append("\",mode=\"")
            .append(MODES[i])
            .append("\"} ")
            .append(seconds(Long.parseLong(f[i + 1])))
            .append('\n');
      }
    }
  }

  private static String seconds(long ticks) {
    return String.format(Locale.ROOT, "%.2f", ticks / TICKS_PER_SECOND);
  }

  private void disks(StringBuilder out) {
    Map<String, long[]> devices;
    try {
      devices = ProcParser.diskPerDevice(procRoot.resolve("diskstats"), disk);
    } catch (IOException | RuntimeException e) {
      return;
    }
    counters(out, devices, "node_disk_read_bytes_total", "node_disk_written_bytes_total");
  }

  private void network(StringBuilder out) {
    Map<String, long[]> devices;
    try {
      devices = ProcParser.networkPerDevice(procRoot.resolve("net").resolve("dev"));
    } catch (IOException | RuntimeException e) {
      return;
    }
    counters(out, devices, "node_network_receive_bytes_total", "node_network_transmit_bytes_total");
  }

  /** Two counters per device: index 0 under {@code first}, index 1 under {@code second}. */
  private static void counters(
      StringBuilder out, Map<String, long[]> devices, String first, String second) {
    String[] names = {first, second};
    for (int i = 0; i < names.length; i++) {
      type(out, names[i], "counter");
      for (Map.Entry<String, long[]> d : devices.entrySet()) {
        sample(out, names[i], "device", d.getKey(), d.getValue()[i]);
      }
    }
  }

  private void filesystems(StringBuilder out) {
    StringBuilder size = new StringBuilder();
    StringBuilder free = new StringBuilder();
    StringBuilder avail = new StringBuilder();
    for (Path path : filesystems) {
      try {
        FileStore store = Files.getFileStore(path);
        String mount = path.toString();
        sample(size, "node_filesystem_size_bytes", "mountpoint", mount, store.getTotalSpace());
        sample(
            free, "node_filesystem_free_bytes", "mountpoint", mount, store.getUnallocatedSpace());
        sample(avail, "node_filesystem_avail_bytes", "mountpoint", mount, store.getUsableSpace());
      } catch (IOException | RuntimeException e) {
        // gone or unreadable: left out this time
      }
    }
    if (!size.isEmpty()) {
      type(out, "node_filesystem_size_bytes", "gauge");
      out.append(size);
      type(out, "node_filesystem_free_bytes", "gauge");
      out.append(free);
      type(out, "node_filesystem_avail_bytes", "gauge");
      out.append(avail);
    }
  }

  private static void type(StringBuilder out, String name, String type) {
    out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder out, String name, String label, String value, long v) {
    out.append(name)
        .append('{')
        .append(label)
        .append("=\"")
        .append(value.replace("\\", "\\\\").replace("\"", "\\\""))
        .append("\"} ")
        .append(v)
        .append('\n');
  }
}
