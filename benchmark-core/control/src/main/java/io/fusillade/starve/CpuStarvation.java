package io.fusillade.starve;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server starved of CPU on this machine ({@link CpuStarve}), until {@link #close()}: the way the
 * seed's hypervisor over-subscription starved a database, reproduced on one machine.
 *
 * <p>Two mechanisms, chosen by {@link #detect}:
 *
 * <ul>
 *   <li>{@link Mechanism#CGROUP_V2} / {@link Mechanism#CGROUP_V1}: the server's processes move into
 *       a cgroup of their own with a CPU quota ({@code cpu.max}, or {@code cpu.cfs_quota_us} of
 *       cgroup v1): {@code cpus} CPUs' worth of time per 100 ms period, then the kernel throttles
 *       them until the next period. Backends forked later are born in it. The burners run in the
 *       same cgroup: they take their share of the quota, as another VM's vCPUs take their share of
 *       the host's cores. Needs a writable cgroup file system (root, or a delegated subtree).
 *   <li>{@link Mechanism#TASKSET}: the server's processes (every thread, {@code taskset -a}) are
 *       pinned onto {@code ceil(cpus)} cores, and the burners onto the same cores: the scheduler
 *       shares those cores between the server and its noisy neighbours.
 * </ul>
 *
 * <p>What this models of over-subscription: fewer CPU cycles per second for the server than its
 * processes ask for, so queries take longer and queue, more so at high concurrency. What it does
 * not: a guest kernel that believes it has the CPU (inside a VM the lost time shows as {@code
 * steal} in {@code /proc/stat}; here the host's kernel knows, so steal stays 0 and the loss shows
 * as throttled periods in the cgroup's {@code cpu.stat} or as the burners' CPU), the hypervisor's
 * co-scheduling of a VM's vCPUs (a spinlock holder descheduled while its waiters spin), cache and
 * memory-bandwidth contention of another tenant, and the network and disk of other VMs. Every
 * burner is a {@code sh} busy loop that ends with its JVM (it watches its parent) and at {@link
 * #close()}.
 */
public final class CpuStarvation implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CpuStarvation.class);

  /** How a server is starved. */
  public enum Mechanism {
    /** A cgroup v2 {@code cpu.max} quota. */
    CGROUP_V2("cgroup v2 cpu.max quota"),
    /** A cgroup v1 {@code cpu.cfs_quota_us} quota. */
    CGROUP_V1("cgroup v1 cpu.cfs_quota_us quota"),
    /** {@code taskset} onto fewer cores, shared with the burners. */
    TASKSET("taskset onto fewer cores");

    /** As the console and {@code run.json} say it. */
    public final String words;

    Mechanism(String words) {
      this.words = words;
    }
  }

  /** The cgroup CPU period, in microseconds: the kernel's default. */
  static final long PERIOD_MICROS = 100_000;

  static final Path CGROUP = Path.of("/sys/fs/cgroup");

  /**
   * A burner: a busy loop of the shell's own arithmetic (no process started per turn), that ends
   * when its parent, the JVM, has: a JVM killed with -9 leaves no burner behind for long.
   */
  public static final String BURN =
      "p=$PPID; while kill -0 $p 2>/dev/null; do i=0;"
          + " while [ $i -lt 100000 ]; do i=$((i+1)); done; done";

  private static final AtomicInteger SEQUENCE = new AtomicInteger();
  private static final Set<CpuStarvation> OPEN = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> List.copyOf(OPEN).forEach(CpuStarvation::close), "fusillade-unstarve"));
  }

  private final CpuStarve starve;
  private final Mechanism mechanism;
  private final Supplier<List<Long>> pids;
  private final List<Process> burners = new ArrayList<>();
  private Path cgroup; // the starved cgroup, or null (taskset)
  private Path original; // the cgroup the server came from, or null
  private String originalCpus; // the server's cpu list before taskset, or null
  private String cores; // the cores of taskset, or null
  private String summary = "";
  private boolean closed;

  private CpuStarvation(CpuStarve starve, Mechanism mechanism, Supplier<List<Long>> pids) {
    this.starve = starve;
    this.mechanism = mechanism;
    this.pids = pids;
  }

  /**
   * The mechanism this machine allows, tried for real (a cgroup made, its quota written, removed).
   *
   * @param wanted {@code auto} (a cgroup quota where one can be made, else taskset), {@code cgroup}
   *     or {@code taskset}
   * @return the mechanism
   * @throws IllegalStateException saying why none is available: a run refuses to start then
   */
  public static Mechanism detect(String wanted) {
    String w = wanted == null ? "auto" : wanted.strip().toLowerCase(Locale.ROOT);
    if (!Set.of("auto", "cgroup", "taskset").contains(w)) {
      throw new IllegalArgumentException(
          "unknown starvation mechanism '" + wanted + "': auto, cgroup or taskset");
    }
    String cgroupWhy = null;
    if (!w.equals("taskset")) {
      try {
        Mechanism m = cgroupVersion();
        Path probe = makeCgroup(m, "probe");
        try {
          writeQuota(m, probe, 1.0);
        } finally {
          Files.deleteIfExists(probe);
        }
        return m;
      } catch (IOException | RuntimeException e) {
        cgroupWhy = e.getMessage();
        if (w.equals("cgroup")) {
          throw new IllegalStateException(
              "a CPU quota needs a writable cgroup file system (root, or a delegated cgroup v2"
                  + " subtree), and this machine gives none: "
                  + cgroupWhy
                  + "; use the taskset mechanism instead");
        }
      }
    }
    if (!Files.isExecutable(Path.of("/usr/bin/taskset"))
        && !Files.isExecutable(Path.of("/bin/taskset"))) {
      throw new IllegalStateException(
          "cannot starve a server of CPU here: no writable cgroup ("
              + (cgroupWhy == null ? "not tried" : cgroupWhy)
              + ") and no taskset (util-linux)");
    }
    return Mechanism.TASKSET;
  }

  /**
   * Starves the processes {@code pids} gives (asked again at the end, for the backends forked
   * since).
   *
   * @param starve how much CPU is left
   * @param mechanism from {@link #detect}
   * @param pids the server's processes: the first is the parent of the others (the postmaster)
   * @return the starvation, to close
   * @throws IllegalStateException when the server cannot be starved (nothing is left changed)
   */
  public static CpuStarvation start(
      CpuStarve starve, Mechanism mechanism, Supplier<List<Long>> pids) {
    CpuStarvation s = new CpuStarvation(starve, mechanism, pids);
    List<Long> now = pids.get();
    if (now.isEmpty()) {
      throw new IllegalStateException("the server is not running: nothing to starve");
    }
    try {
      if (mechanism == Mechanism.TASKSET) {
        s.pin(now);
      } else {
        s.quota(now);
      }
      OPEN.add(s);
      LOG.info("CPU starvation: {} ({})", starve.describe(), mechanism.words);
      return s;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw new IllegalStateException(
          "could not starve the server of CPU (" + mechanism.words + "): " + e.getMessage(), e);
    }
  }

  /** {@code cpu 1 burners 2, cgroup v1 cpu.cfs_quota_us quota}: for the record and the console. */
  public String describe() {
    return starve.describe() + " (" + mechanism.words + (cores != null ? " " + cores : "") + ")";
  }

  /** As {@link #describe()}, and what it cost once closed. */
  @Override
  public synchronized String toString() {
    return describe() + (summary.isEmpty() ? "" : ", " + summary);
  }

  /** The mechanism used. */
  public Mechanism mechanism() {
    return mechanism;
  }

  /**
   * What the starvation cost the server, known after {@link #close()}: the periods a quota
   * throttled, or empty.
   */
  public synchronized String summary() {
    return summary;
  }

  // ---- cgroups

  private static Mechanism cgroupVersion() throws IOException {
    if (Files.isRegularFile(CGROUP.resolve("cgroup.controllers"))) {
      String controllers = Files.readString(CGROUP.resolve("cgroup.controllers"));
      if (!List.of(controllers.strip().split("\\s+")).contains("cpu")) {
        throw new IOException("cgroup v2 without its cpu controller");
      }
      return Mechanism.CGROUP_V2;
    }
    if (Files.isRegularFile(v1Root().resolve("cpu.cfs_quota_us"))) {
      return Mechanism.CGROUP_V1;
    }
    throw new IOException("no cgroup cpu controller under " + CGROUP);
  }

  private static Path v1Root() {
    Path cpu = CGROUP.resolve("cpu");
    return Files.isDirectory(cpu) ? cpu : CGROUP.resolve("cpu,cpuacct");
  }

  private static Path root(Mechanism m) {
    return m == Mechanism.CGROUP_V2 ? CGROUP : v1Root();
  }

  private static Path makeCgroup(Mechanism m, String what) throws IOException {
    Path root = root(m);
    if (m == Mechanism.CGROUP_V2) {
      String subtree = Files.readString(root.resolve("cgroup.subtree_control"));
      if (!List.of(subtree.strip().split("\\s+")).contains("cpu")) {
        Files.writeString(root.resolve("cgroup.subtree_control"), "+cpu");
      }
    }
    Path dir =
        root.resolve(
            "fusillade-starve-"
                + ProcessHandle.current().pid()
                + "-"
                + what
                + "-"
                + SEQUENCE.incrementAndGet());
    Files.createDirectory(dir);
    return dir;
  }

  private static void writeQuota(Mechanism m, Path dir, double cpus) throws IOException {
    long quota = Math.max(1000, Math.round(cpus * PERIOD_MICROS));
    if (m == Mechanism.CGROUP_V2) {
      Files.writeString(dir.resolve("cpu.max"), quota + " " + PERIOD_MICROS);
    } else {
      Files.writeString(dir.resolve("cpu.cfs_period_us"), String.valueOf(PERIOD_MICROS));
      Files.writeString(dir.resolve("cpu.cfs_quota_us"), String.valueOf(quota));
    }
  }

  /** The cgroup of {@code pid} for the cpu controller, from {@code /proc/PID/cgroup}. */
  private Path cgroupOf(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length < 3) {
        continue;
      }
      boolean cpu =
          mechanism == Mechanism.CGROUP_V2
              ? parts[0].equals("0")
              : List.of(parts[1].split(",")).contains("cpu");
      if (cpu) {
        return root(mechanism).resolve(parts[2].replaceFirst("^/", ""));
      }
    }
    throw new IOException("no cpu cgroup of process " + pid);
  }

  private void quota(List<Long> now) throws IOException {
    original = cgroupOf(now.get(0));
    cgroup = makeCgroup(mechanism, "server");
    writeQuota(mechanism, cgroup, starve.cpus());
    for (long pid : now) {
      move(pid, cgroup, pid == now.get(0));
    }
    for (int i = 0; i < starve.burners(); i++) {
      Process burner = burner(List.of());
      move(burner.pid(), cgroup, true);
    }
  }

  private static void move(long pid, Path to, boolean required) throws IOException {
    try {
      Files.writeString(to.resolve("cgroup.procs"), String.valueOf(pid));
    } catch (IOException e) {
      if (required || ProcessHandle.of(pid).isPresent()) {
        throw new IOException("cannot move process " + pid + " into " + to + ": " + e.getMessage());
      }
      // a backend that ended meanwhile
    }
  }

  private void unquota() {
    try {
      summary = throttled();
    } catch (IOException | RuntimeException e) {
      summary = "";
    }
    for (int attempt = 0; attempt < 5; attempt++) {
      try {
        for (String pid : Files.readAllLines(cgroup.resolve("cgroup.procs"))) {
          if (!pid.isBlank()) {
            move(Long.parseLong(pid.strip()), original, false);
          }
        }
        Files.delete(cgroup);
        return;
      } catch (IOException e) {
        sleep(100); // a backend forked while the others moved: once more
      }
    }
    LOG.warn("Could not remove the cgroup {}: remove it by hand (rmdir)", cgroup);
  }

  /** {@code throttled 42% of 130 periods}, from the cgroup's {@code cpu.stat}. */
  private String throttled() throws IOException {
    long periods = 0;
    long throttled = 0;
    for (String line : Files.readAllLines(cgroup.resolve("cpu.stat"))) {
      String[] kv = line.strip().split("\\s+");
      if (kv.length == 2 && kv[0].equals("nr_periods")) {
        periods = Long.parseLong(kv[1]);
      } else if (kv.length == 2 && kv[0].equals("nr_throttled")) {
        throttled = Long.parseLong(kv[1]);
      }
    }
    return periods == 0
        ? ""
        : "throttled in "
            + Math.round(100.0 * throttled / periods)
            + "% of "
            + periods
            + " periods";
  }

  // ---- taskset

  private void pin(List<Long> now) throws IOException {
    List<Integer> allowed = cpuList(status(now.get(0), "Cpus_allowed_list"));
    originalCpus = status(now.get(0), "Cpus_allowed_list");
    int n = (int) Math.ceil(starve.cpus());
    if (n >= allowed.size() && starve.burners() == 0) {
      throw new IOException(
          "the server may use "
              + allowed.size()
              + " CPUs already: pinning it to "
              + n
              + " starves nothing; give fewer CPUs or burners");
    }
    // the last cores: the first ones are where the system's own interrupts tend to land
    List<Integer> chosen = allowed.subList(Math.max(0, allowed.size() - n), allowed.size());
    cores = "cpus " + String.join(",", chosen.stream().map(String::valueOf).toList());
    String list = String.join(",", chosen.stream().map(String::valueOf).toList());
    for (long pid : now) {
      taskset(list, pid, pid == now.get(0));
    }
    for (int i = 0; i < starve.burners(); i++) {
      burner(List.of(taskset(), "-c", list));
    }
  }

  private void unpin() {
    for (long pid : pids.get()) {
      try {
        taskset(originalCpus, pid, false);
      } catch (IOException e) {
        LOG.warn("Could not give process {} its CPUs back: {}", pid, e.getMessage());
      }
    }
  }

  private static String taskset() {
    return Files.isExecutable(Path.of("/usr/bin/taskset")) ? "/usr/bin/taskset" : "taskset";
  }

  private static void taskset(String cpus, long pid, boolean required) throws IOException {
    Process p =
        new ProcessBuilder(taskset(), "-a", "-p", "-c", cpus, String.valueOf(pid))
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("taskset did not answer");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
    if (p.exitValue() != 0 && (required || ProcessHandle.of(pid).isPresent())) {
      throw new IOException("taskset -a -p -c " + cpus + " " + pid + ": " + out);
    }
  }

  private static String status(long pid, String key) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith(key + ":")) {
        return line.substring(key.length() + 1).strip();
      }
    }
    throw new IOException("no " + key + " for process " + pid);
  }

  /** {@code 0-3,6} as 0, 1, 2, 3, 6. */
  static List<Integer> cpuList(String list) {
    List<Integer> cpus = new ArrayList<>();
    for (String part : list.strip().split(",")) {
      String[] range = part.strip().split("-");
      int from = Integer.parseInt(range[0]);
      int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
      for (int c = from; c <= to; c++) {
        cpus.add(c);
      }
    }
    return cpus;
  }

  // ---- burners

  private Process burner(List<String> prefix) throws IOException {
    List<String> command = new ArrayList<>(prefix);
    if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
      // a session of its own: with the kernel's autogroup scheduling, CPU is shared between
      // sessions first, so burners in the JVM's one session would count as one neighbour at most
      command.add("/usr/bin/setsid");
    }
    command.addAll(List.of("sh", "-c", BURN));
    Process p =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    synchronized (this) {
      burners.add(p);
    }
    return p;
  }

  /** The burners' processes (tests check they end). */
  synchronized List<Process> burners() {
    return List.copyOf(burners);
  }

  /** Stops the burners, gives the server its CPUs back; once. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    OPEN.remove(this);
    for (Process p : burners) {
      p.destroyForcibly();
    }
    for (Process p : burners) {
      try {
        p.waitFor(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (cgroup != null) {
      unquota();
    } else if (originalCpus != null) {
      unpin();
    }
    LOG.info("CPU starvation over: {}{}", describe(), summary.isEmpty() ? "" : ", " + summary);
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
