package io.fusillade.system;

import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the machine's and some processes' resource use once a second into a run record, as gauges
 * of the {@link RunRecorder} (so they land in {@code counters.jsonl} beside the requests of the
 * same second).
 *
 * <p>Gauges (percentages are 0–100; CPU % of a whole machine or core for {@code system.*}, of one
 * core for {@code process.*} as {@code top} shows it):
 *
 * <ul>
 *   <li>{@code system.cpu.user|system|iowait|steal|idle}: the whole machine, from {@code
 *       /proc/stat} ({@code user} includes nice, {@code system} includes irq and softirq);
 *   <li>{@code system.cpu.<n>.user|system|iowait|steal|idle}: core {@code n};
 *   <li>{@code system.load1}: the 1-minute load average;
 *   <li>{@code system.memory.used|available}: bytes ({@code used = MemTotal - MemAvailable});
 *   <li>{@code system.disk.read|write}: bytes/s over the physical disks;
 *   <li>{@code system.net.rx|tx}: bytes/s over the real interfaces; {@code system.net.lo.rx|tx}
 *       over loopback, apart, because a local server's traffic is not network traffic;
 *   <li>{@code process.<label>.cpu} and {@code process.<label>.rss} (bytes): the injector's own JVM
 *       ({@code process.injector.*}) and each {@link WatchedProcess}.
 * </ul>
 *
 * <p>No extra thread: the recorder reads its gauges once per flush, and the first gauge read in a
 * flush takes a fresh sample of everything, so all values of a second come from one sample. Without
 * {@code /proc} (macOS, Windows) it falls back on what the JVM tells: {@code system.cpu.busy}, the
 * load average, memory and the injector's CPU. A file that cannot be read loses its gauges for that
 * second, never the run.
 *
 * <p>When the run closes, the averages go to {@code health.system} of {@code run.json}, and an
 * average CPU steal above the threshold (default {@value #DEFAULT_STEAL_THRESHOLD_PERCENT}%) adds a
 * flag: the numbers come from a machine starved by its hypervisor.
 */
public final class SystemSampler {
  private static final Logger LOG = LoggerFactory.getLogger(SystemSampler.class);

  /** The prefix of the machine's gauges. */
  public static final String SYSTEM_PREFIX = "system.";

  /** The prefix of the processes' gauges. */
  public static final String PROCESS_PREFIX = "process.";

  /** Whole-machine CPU steal, %. */
  public static final String CPU_STEAL = "system.cpu.steal";

  /** Whole-machine CPU not idle, % (the JVM fallback's only CPU gauge). */
  public static final String CPU_BUSY = "system.cpu.busy";

  /** The label of the injector's own process. */
  public static final String INJECTOR_LABEL = "injector";

  /** The health entry of {@code run.json}. */
  public static final String HEALTH_KEY = "system";

  /** Default average steal above which a run is flagged. */
  public static final double DEFAULT_STEAL_THRESHOLD_PERCENT = 5.0;

  private static final String[] CPU_FIELDS = {"user", "system", "iowait", "steal", "idle"};
  private static final long MIN_SAMPLE_GAP_NANOS = Duration.ofMillis(500).toNanos();

  /**
   * Where to read and what to watch.
   *
   * @param procRoot the {@code /proc} directory (another one in tests)
   * @param sysBlock the {@code /sys/block} directory, to tell physical disks apart
   * @param processes processes to watch besides the injector
   * @param stealThresholdPercent average steal, %, above which the run is flagged
   */
  public record Options(
      Path procRoot, Path sysBlock, List<WatchedProcess> processes, double stealThresholdPercent) {

    /**
     * Copies the list.
     *
     * @param procRoot see {@link #procRoot()}
     * @param sysBlock see {@link #sysBlock()}
     * @param processes see {@link #processes()}
     * @param stealThresholdPercent see {@link #stealThresholdPercent()}
     */
    public Options {
      Objects.requireNonNull(procRoot, "procRoot");
      Objects.requireNonNull(sysBlock, "sysBlock");
      processes = List.copyOf(processes);
    }

    /**
     * The real {@code /proc}, no watched process, the default steal threshold.
     *
     * @return the options
     */
    public static Options defaults() {
      return new Options(
          Path.of("/proc"), Path.of("/sys/block"), List.of(), DEFAULT_STEAL_THRESHOLD_PERCENT);
    }

    /**
     * These options watching more processes.
     *
     * @param more processes to watch
     * @return the options
     */
    public Options watching(List<WatchedProcess> more) {
      List<WatchedProcess> all = new ArrayList<>(processes);
      all.addAll(more);
      return new Options(procRoot, sysBlock, all, stealThresholdPercent);
    }
  }

  private final Options options;
  private final boolean proc;
  private final List<String> cpuLines = new ArrayList<>();
  private final Predicate<String> disk;
  private final List<WatchedProcess> processes = new ArrayList<>();

  // guarded by this
  private final Map<String, Double> values = new HashMap<>();
  private long lastNanos = Long.MIN_VALUE;
  private Map<String, ProcParser.CpuTimes> lastCpu;
  private long[] lastDisk;
  private long[] lastNet;
  private final Map<String, Map<Long, Long>> lastProcessCpu = new HashMap<>();
  private int samples;
  private double stealSum;
  private double stealMax;
  private double busySum;

  SystemSampler(Options options) {
    this.options = options;
    this.proc = Files.isReadable(options.procRoot().resolve("stat"));
    processes.add(WatchedProcess.ofPid(ProcessHandle.current().pid(), INJECTOR_LABEL));
    processes.addAll(options.processes());
    List<String> disks = ProcParser.physicalDisks(options.sysBlock());
    this.disk = disks.isEmpty() ? ProcParser::looksLikeWholeDisk : Set.copyOf(disks)::contains;
    if (proc) {
      try {
        cpuLines.addAll(ProcParser.cpu(options.procRoot().resolve("stat")).keySet());
      } catch (IOException | RuntimeException e) {
        LOG.debug("cannot read {}/stat: {}", options.procRoot(), e.toString());
      }
    }
    sample(); // the baseline of the first second's rates
  }

  /** The values of the last sample, by gauge name (a copy). */
  synchronized Map<String, Double> values() {
    return new HashMap<>(values);
  }

  /**
   * Starts sampling into {@code run}: registers the gauges, and a finish hook that writes the
   * averages to {@code health.system} and flags a starved machine.
   *
   * @param run the run record
   * @param options where to read and what to watch
   * @return the sampler
   */
  public static SystemSampler install(RunRecorder run, Options options) {
    SystemSampler sampler = new SystemSampler(options);
    for (String name : sampler.gaugeNames()) {
      run.gauge(name, () -> sampler.value(name));
    }
    run.onFinish(
        () -> {
          Map<String, Object> health = sampler.health();
          run.health(HEALTH_KEY, health);
          sampler.stealWarning().ifPresent(run::flag);
        });
    return sampler;
  }

  /** Every gauge this sampler may fill. */
  List<String> gaugeNames() {
    List<String> names = new ArrayList<>();
    if (proc) {
      for (String line : cpuLines) {
        String prefix =
            line.equals("cpu") ? "system.cpu." : "system.cpu." + line.substring(3) + ".";
        for (String field : CPU_FIELDS) {
          names.add(prefix + field);
        }
      }
      names.addAll(
          List.of(
              "system.disk.read",
              "system.disk.write",
              "system.net.rx",
              "system.net.tx",
              "system.net.lo.rx",
              "system.net.lo.tx"));
    } else {
      names.add(CPU_BUSY);
    }
    names.addAll(List.of("system.load1", "system.memory.used", "system.memory.available"));
    for (WatchedProcess p : processes) {
      names.add(PROCESS_PREFIX + p.label() + ".cpu");
      names.add(PROCESS_PREFIX + p.label() + ".rss");
    }
    return names;
  }

  /** The gauge's value in the current second, sampling if the last sample is older than 0.5 s. */
  synchronized double value(String name) {
    if (lastNanos == Long.MIN_VALUE || System.nanoTime() - lastNanos >= MIN_SAMPLE_GAP_NANOS) {
      sample();
    }
    Double v = values.get(name);
    return v == null ? Double.NaN : v;
  }

  /** Takes a sample now: rates over the time since the previous one. */
  synchronized void sample() {
    sample(System.nanoTime());
  }

  /** Takes a sample as of {@code now} ({@link System#nanoTime()} scale); tests pass their own. */
  synchronized void sample(long now) {
    double seconds = lastNanos == Long.MIN_VALUE ? Double.NaN : (now - lastNanos) / 1e9;
    values.clear();
    if (proc) {
      sampleProc(seconds);
    } else {
      sampleJvm();
    }
    for (WatchedProcess p : processes) {
      try {
        sampleProcess(p, seconds);
      } catch (RuntimeException e) {
        // what a process shows of itself while it ends is no reason to end the run measuring it
        LOG.debug("cannot sample the process {}: {}", p.label(), e.toString());
      }
    }
    lastNanos = now;
    Double steal = values.get(CPU_STEAL);
    Double busy = busy();
    if (busy != null) {
      samples++;
      busySum += busy;
      if (steal != null) {
        stealSum += steal;
        stealMax = Math.max(stealMax, steal);
      }
    }
  }

  private Double busy() {
    Double idle = values.get("system.cpu.idle");
    if (idle != null) {
      return 100 - idle;
    }
    return values.get(CPU_BUSY);
  }

  private void sampleProc(double seconds) {
    Path root = options.procRoot();
    try {
      Map<String, ProcParser.CpuTimes> cpu = ProcParser.cpu(root.resolve("stat"));
      if (lastCpu != null) {
        cpu.forEach(
            (line, times) -> {
              ProcParser.CpuTimes before = lastCpu.get(line);
              if (before == null) {
                return;
              }
              double total = times.total() - before.total();
              if (total <= 0) {
                return;
              }
              String prefix =
                  line.equals("cpu") ? "system.cpu." : "system.cpu." + line.substring(3) + ".";
              values.put(prefix + "user", 100 * (times.user() - before.user()) / total);
              values.put(prefix + "system", 100 * (times.system() - before.system()) / total);
              values.put(prefix + "iowait", 100 * (times.iowait() - before.iowait()) / total);
              values.put(prefix + "steal", 100 * (times.steal() - before.steal()) / total);
              values.put(prefix + "idle", 100 * (times.idle() - before.idle()) / total);
            });
      }
      lastCpu = cpu;
    } catch (IOException | RuntimeException e) {
      lastCpu = null;
    }
    try {
      values.put("system.load1", ProcParser.load1(root.resolve("loadavg")));
    } catch (IOException | RuntimeException e) {
      // missing this second
    }
    try {
      long[] memory = ProcParser.memory(root.resolve("meminfo"));
      if (memory[0] >= 0 && memory[1] >= 0) {
        values.put("system.memory.used", (double) (memory[0] - memory[1]));
        values.put("system.memory.available", (double) memory[1]);
      }
    } catch (IOException | RuntimeException e) {
      // missing this second
    }
    try {
      long[] disk = ProcParser.disk(root.resolve("diskstats"), this.disk);
      rates(lastDisk, disk, seconds, "system.disk.read", "system.disk.write");
      lastDisk = disk;
    } catch (IOException | RuntimeException e) {
      lastDisk = null;
    }
    try {
      long[] net = ProcParser.network(root.resolve("net").resolve("dev"));
      rates(
          lastNet,
          net,
          seconds,
          "system.net.rx",
          "system.net.tx",
          "system.net.lo.rx",
          "system.net.lo.tx");
      lastNet = net;
    } catch (IOException | RuntimeException e) {
      lastNet = null;
    }
  }

  private void rates(long[] before, long[] now, double seconds, String... names) {
    if (before == null || !(seconds > 0)) {
      return;
    }
    for (int i = 0; i < names.length; i++) {
      long delta = now[i] - before[i];
      if (delta >= 0) { // a counter reset (interface re-created) gives no value this second
        values.put(names[i], delta / seconds);
      }
    }
  }

  private void sampleJvm() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    double load = os.getSystemLoadAverage();
    if (load >= 0) {
      values.put("system.load1", load);
    }
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      double cpu = sun.getCpuLoad();
      if (cpu >= 0) {
        values.put(CPU_BUSY, 100 * cpu);
      }
      long total = sun.getTotalMemorySize();
      long free = sun.getFreeMemorySize();
      if (total > 0) {
        values.put("system.memory.used", (double) (total - free));
        values.put("system.memory.available", (double) free);
      }
    }
  }

  private void sampleProcess(WatchedProcess watched, double seconds) {
    List<ProcessHandle> handles = handles(watched);
    Map<Long, Long> cpuNow = new HashMap<>();
    long rss = 0;
    boolean anyRss = false;
    for (ProcessHandle handle : handles) {
      handle.info().totalCpuDuration().ifPresent(d -> cpuNow.put(handle.pid(), d.toNanos()));
      if (proc) {
        long r =
            ProcParser.rss(
                options.procRoot().resolve(Long.toString(handle.pid())).resolve("status"));
        if (r >= 0) {
          rss += r;
          anyRss = true;
        }
      }
    }
    String prefix = PROCESS_PREFIX + watched.label();
    Map<Long, Long> before = lastProcessCpu.put(watched.label(), cpuNow);
    if (before != null && seconds > 0 && !cpuNow.isEmpty()) {
      long delta = 0;
      for (Map.Entry<Long, Long> e : cpuNow.entrySet()) {
        // a process born in this second counts with all its CPU time, which is all this second's
        delta += e.getValue() - before.getOrDefault(e.getKey(), 0L);
      }
      values.put(prefix + ".cpu", Math.max(0, 100 * delta / (seconds * 1e9)));
    }
    if (anyRss) {
      values.put(prefix + ".rss", (double) rss);
    }
  }

  private List<ProcessHandle> handles(WatchedProcess watched) {
    if (watched.pid() >= 0) {
      Optional<ProcessHandle> root = ProcessHandle.of(watched.pid());
      if (root.isEmpty()) {
        return List.of();
      }
      if (watched.pid() == ProcessHandle.current().pid()) {
        return List.of(root.get());
      }
      List<ProcessHandle> all = new ArrayList<>();
      all.add(root.get());
      root.get().descendants().forEach(all::add);
      return all;
    }
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      return all.filter(h -> named(h, watched.name())).collect(Collectors.toList());
    }
  }

  /**
   * Whether {@code command}'s file is {@code name}. A command the JVM reads as "/" (a process that
   * ended as it was read) has no file name: its NullPointerException ended a run's injector as its
   * sampler started (CI, 2026-12-03).
   */
  static boolean commandNamed(String command, String name) {
    try {
      Path file = Path.of(command).getFileName();
      return file != null && file.toString().equals(name);
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  private boolean named(ProcessHandle handle, String name) {
    Optional<String> command = handle.info().command();
    if (command.isPresent() && commandNamed(command.get(), name)) {
      return true;
    }
    if (proc) {
      try {
        Path comm = options.procRoot().resolve(Long.toString(handle.pid())).resolve("comm");
        return Files.readString(comm).trim().equals(name);
      } catch (IOException | RuntimeException e) {
        return false;
      }
    }
    return false;
  }

  /** Averages over the run, for {@code health.system} of {@code run.json}. */
  synchronized Map<String, Object> health() {
    Map<String, Object> health = new LinkedHashMap<>();
    health.put("source", proc ? "/proc" : "jvm");
    health.put("samples", samples);
    if (samples > 0) {
      health.put("cpuBusyAvgPercent", round(busySum / samples));
      if (proc) {
        health.put("cpuStealAvgPercent", round(stealSum / samples));
        health.put("cpuStealMaxPercent", round(stealMax));
      }
    }
    health.put("stealThresholdPercent", options.stealThresholdPercent());
    health.put("starved", stealWarning().isPresent());
    return health;
  }

  /** The flag for a starved machine, when the average steal is above the threshold. */
  synchronized Optional<String> stealWarning() {
    if (samples == 0 || !proc) {
      return Optional.empty();
    }
    double average = stealSum / samples;
    if (average <= options.stealThresholdPercent()) {
      return Optional.empty();
    }
    return Optional.of(
        String.format(
            Locale.ROOT,
            "CPU steal averaged %.1f%% (above %.1f%%): the machine was starved by its hypervisor —"
                + " numbers are not trustworthy",
            average,
            options.stealThresholdPercent()));
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
