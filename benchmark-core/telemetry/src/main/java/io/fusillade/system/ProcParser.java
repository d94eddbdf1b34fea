package io.fusillade.system;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses the few {@code /proc} files the sampler reads into raw cumulative counters. Kept apart
 * from the sampler so that tests can feed it files with known contents.
 */
final class ProcParser {
  private ProcParser() {}

  /**
   * CPU times from {@code /proc/stat}, in clock ticks, per line {@code cpu} (index 0: the whole
   * machine) and {@code cpuN}: user (with nice), system (with irq and softirq), idle, iowait,
   * steal.
   */
  record CpuTimes(long user, long system, long idle, long iowait, long steal) {
    long total() {
      return user + system + idle + iowait + steal;
    }
  }

  /** The {@code cpu} line first, then {@code cpu0}, {@code cpu1}... in file order. */
  static Map<String, CpuTimes> cpu(Path stat) throws IOException {
    Map<String, CpuTimes> cpus = new LinkedHashMap<>();
    for (String line : Files.readAllLines(stat)) {
      if (!line.startsWith("cpu")) {
        continue;
      }
      String[] f = line.trim().split("\\s+");
      if (f.length < 5) {
        continue;
      }
      long[] v = new long[10];
      for (int i = 1; i < f.length && i <= 10; i++) {
        v[i - 1] = Long.parseLong(f[i]);
      }
      // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already
      // counted in user, so it is left out of the total
      cpus.put(f[0], new CpuTimes(v[0] + v[1], v[2] + v[5] + v[6], v[3], v[4], v[7]));
    }
    return cpus;
  }

  /** The 1-minute load average from {@code /proc/loadavg}. */
  static double load1(Path loadavg) throws IOException {
    return Double.parseDouble(Files.readString(loadavg).trim().split("\\s+")[0]);
  }

  /** MemTotal and MemAvailable from {@code /proc/meminfo}, in bytes. */
  static long[] memory(Path meminfo) throws IOException {
    long total = -1;
    long available = -1;
    for (String line : Files.readAllLines(meminfo)) {
      if (line.startsWith("MemTotal:")) {
        total = kilobytes(line);
      } else if (line.startsWith("MemAvailable:")) {
        available = kilobytes(line);
      }
    }
    return new long[] {total, available};
  }

  private static long kilobytes(String line) {
    String[] f = line.trim().split("\\s+");
    return Long.parseLong(f[1]) * 1024;
  }

  /**
   * Bytes read and written since boot by the given block devices, from {@code /proc/diskstats}
   * (sectors are 512 bytes there, whatever the device's own sector size).
   */
  static long[] disk(Path diskstats, java.util.function.Predicate<String> device)
      throws IOException {
    long[] total = new long[2];
    diskPerDevice(diskstats, device)
        .values()
        .forEach(
            bytes -> {
              total[0] += bytes[0];
              total[1] += bytes[1];
            });
    return total;
  }

  /** {@link #disk}'s bytes read and written, per device in file order. */
  static Map<String, long[]> diskPerDevice(
      Path diskstats, java.util.function.Predicate<String> device) throws IOException {
    Map<String, long[]> devices = new LinkedHashMap<>();
    for (String line : Files.readAllLines(diskstats)) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 10 || !device.test(f[2])) {
        continue;
      }
      devices.put(f[2], new long[] {Long.parseLong(f[5]) * 512, Long.parseLong(f[9]) * 512});
    }
    return devices;
  }

  /**
   * Bytes received and sent since boot from {@code /proc/net/dev}: index 0/1 over the real
   * interfaces, 2/3 over loopback ({@code lo}).
   */
  static long[] network(Path netdev) throws IOException {
    long[] bytes = new long[4];
    networkPerDevice(netdev)
        .forEach(
            (name, rxTx) -> {
              int offset = name.equals("lo") ? 2 : 0;
              bytes[offset] += rxTx[0];
              bytes[offset + 1] += rxTx[1];
            });
    return bytes;
  }

  /** Bytes received and sent since boot per interface, from {@code /proc/net/dev}. */
  static Map<String, long[]> networkPerDevice(Path netdev) throws IOException {
    Map<String, long[]> devices = new LinkedHashMap<>();
    for (String line : Files.readAllLines(netdev)) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue; // the two header lines
      }
      String[] f = line.substring(colon + 1).trim().split("\\s+");
      if (f.length < 9) {
        continue;
      }
      devices.put(
          line.substring(0, colon).trim(), new long[] {Long.parseLong(f[0]), Long.parseLong(f[8])});
    }
    return devices;
  }

  /** VmRSS of {@code /proc/<pid>/status} in bytes, or -1 when the process is gone. */
  static long rss(Path status) {
    try {
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmRSS:")) {
          return kilobytes(line);
        }
      }
      return 0; // a kernel thread or a zombie: no memory of its own
    } catch (IOException | RuntimeException gone) {
      return -1;
    }
  }

  /**
   * The whole-disk devices to count: those under {@code /sys/block} that are backed by a device
   * (loop, ram, device-mapper and md devices are not, and would count the same bytes twice).
   */
  static List<String> physicalDisks(Path sysBlock) {
    List<String> disks = new ArrayList<>();
    try (var entries = Files.list(sysBlock)) {
      entries
          .filter(p -> Files.exists(p.resolve("device")))
          .forEach(p -> disks.add(p.getFileName().toString()));
    } catch (IOException | RuntimeException e) {
      // no /sys: fall back on names below
    }
    return disks;
  }

  /** Without {@code /sys/block}: whole disks by name, partitions and virtual devices left out. */
  static boolean looksLikeWholeDisk(String name) {
    if (name.startsWith("loop") || name.startsWith("ram") || name.startsWith("dm-")) {
      return false;
    }
    if (name.startsWith("nvme") || name.startsWith("mmcblk")) {
      return !name.matches(".*p\\d+$");
    }
    return !name.matches(".*\\d$");
  }
}
