package io.fusillade.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemSamplerTest {
  @TempDir Path dir;

  /** Writes a /proc snapshot with the given cumulative counters. */
  private void proc(
      Path root,
      long user,
      long system,
      long idle,
      long iowait,
      long steal,
      long diskSectors,
      long ethRx,
      long loRx)
      throws Exception {
    Files.createDirectories(root.resolve("net"));
    Files.writeString(
        root.resolve("stat"),
        // user nice system idle iowait irq softirq steal guest guest_nice
        String.format(
            "cpu  %d 0 %d %d %d 0 0 %d 0 0%ncpu0 %d 0 %d %d %d 0 0 %d 0 0%nintr 1 2 3%n",
            user, system, idle, iowait, steal, user, system, idle, iowait, steal));
    Files.writeString(root.resolve("loadavg"), "1.50 1.00 0.50 2/300 4242\n");
    Files.writeString(
        root.resolve("meminfo"),
        "MemTotal:       16000000 kB\nMemFree:  1000 kB\nMemAvailable:   12000000 kB\n");
    Files.writeString(
        root.resolve("diskstats"),
        String.format(
            "   8       0 sda 100 0 %d 0 50 0 %d 0 0 0 0%n"
                + "   8       1 sda1 100 0 %d 0 50 0 %d 0 0 0 0%n"
                + "   7       0 loop0 1 0 999999 0 0 0 0 0 0 0 0%n",
            diskSectors, 2 * diskSectors, diskSectors, 2 * diskSectors));
    Files.writeString(
        root.resolve("net").resolve("dev"),
        String.format(
            "Inter-|   Receive                                                |  Transmit%n"
                + " face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets%n"
                + "    lo: %d 10 0 0 0 0 0 0 %d 10 0 0 0 0 0 0%n"
                + "  eth0: %d 10 0 0 0 0 0 0 %d 10 0 0 0 0 0 0%n",
            loRx, loRx, ethRx, ethRx / 2));
  }

  @Test
  void aProcessIsWatchedByItsCommandsFileNameAndACommandWithoutOneIsNoMatch() {
    assertThat(SystemSampler.commandNamed("/usr/lib/postgresql/bin/postgres", "postgres")).isTrue();
    assertThat(SystemSampler.commandNamed("postgres", "postgres")).isTrue();
    assertThat(SystemSampler.commandNamed("/usr/bin/java", "postgres")).isFalse();
    // what the JVM reads of a process that ends as it is read: no file name, no exception
    assertThat(SystemSampler.commandNamed("/", "postgres")).isFalse();
    assertThat(SystemSampler.commandNamed("", "postgres")).isFalse();
    assertThat(SystemSampler.commandNamed("bad\0path", "postgres")).isFalse();
  }

  @Test
  void computesPercentagesAndRatesFromTwoSnapshots() throws Exception {
    Path root = dir.resolve("proc");
    proc(root, 1000, 500, 8000, 100, 0, 0, 0, 0);
    SystemSampler sampler =
        new SystemSampler(new SystemSampler.Options(root, dir.resolve("no-sys"), List.of(), 5.0));
    // +100 ticks: 40 user, 20 system, 20 idle, 10 iowait, 10 steal; 2 s later
    proc(root, 1040, 520, 8020, 110, 10, 4000, 2_000_000, 600_000);
    sampler.sample(System.nanoTime());
    Map<String, Double> v = sampler.values();
    assertThat(v.get("system.cpu.user")).isCloseTo(40.0, within(1e-9));
    assertThat(v.get("system.cpu.system")).isCloseTo(20.0, within(1e-9));
    assertThat(v.get("system.cpu.idle")).isCloseTo(20.0, within(1e-9));
    assertThat(v.get("system.cpu.iowait")).isCloseTo(10.0, within(1e-9));
    assertThat(v.get("system.cpu.steal")).isCloseTo(10.0, within(1e-9));
    assertThat(v.get("system.cpu.0.steal")).isCloseTo(10.0, within(1e-9));
    assertThat(v.get("system.load1")).isEqualTo(1.5);
    assertThat(v.get("system.memory.used")).isEqualTo(4_000_000.0 * 1024);
    assertThat(v.get("system.memory.available")).isEqualTo(12_000_000.0 * 1024);
  }

  @Test
  void ratesAreBytesPerSecondWithLoopbackApartAndPartitionsNotCountedTwice() throws Exception {
    Path root = dir.resolve("proc");
    proc(root, 1000, 500, 8000, 100, 0, 0, 0, 0);
    SystemSampler sampler =
        new SystemSampler(new SystemSampler.Options(root, dir.resolve("no-sys"), List.of(), 5.0));
    long start = System.nanoTime();
    sampler.sample(start); // baseline at a known time
    proc(root, 1040, 520, 8020, 110, 10, 4000, 2_000_000, 600_000);
    sampler.sample(start + 2_000_000_000L); // two seconds later
    Map<String, Double> v = sampler.values();
    // sda only (sda1 is its partition, loop0 virtual): 4000 sectors of 512 bytes read in 2 s
    assertThat(v.get("system.disk.read")).isCloseTo(4000 * 512 / 2.0, within(1e-6));
    assertThat(v.get("system.disk.write")).isCloseTo(8000 * 512 / 2.0, within(1e-6));
    assertThat(v.get("system.net.rx")).isCloseTo(1_000_000.0, within(1e-6));
    assertThat(v.get("system.net.tx")).isCloseTo(500_000.0, within(1e-6));
    assertThat(v.get("system.net.lo.rx")).isCloseTo(300_000.0, within(1e-6));
  }

  @Test
  void averageStealAboveTheThresholdFlagsTheRun() throws Exception {
    Path root = dir.resolve("proc");
    proc(root, 1000, 500, 8000, 100, 0, 0, 0, 0);
    SystemSampler sampler =
        new SystemSampler(new SystemSampler.Options(root, dir.resolve("no-sys"), List.of(), 5.0));
    proc(root, 1040, 520, 8020, 110, 10, 0, 0, 0); // 10% steal
    sampler.sample(System.nanoTime());
    assertThat(sampler.stealWarning()).hasValueSatisfying(w -> assertThat(w).contains("10.0%"));
    assertThat(sampler.health()).containsEntry("starved", true);

    SystemSampler calm =
        new SystemSampler(new SystemSampler.Options(root, dir.resolve("no-sys"), List.of(), 15.0));
    proc(root, 1080, 540, 8040, 120, 20, 0, 0, 0);
    calm.sample(System.nanoTime());
    assertThat(calm.stealWarning()).isEmpty();
  }

  @Test
  void withoutProcItFallsBackOnTheJvmAndStillRecords() throws Exception {
    Path nothing = dir.resolve("missing");
    SystemSampler sampler =
        new SystemSampler(new SystemSampler.Options(nothing, nothing, List.of(), 5.0));
    assertThat(sampler.gaugeNames()).contains(SystemSampler.CPU_BUSY, "process.injector.cpu");
    assertThat(sampler.gaugeNames()).doesNotContain(SystemSampler.CPU_STEAL);
    sampler.sample(System.nanoTime() + 1_000_000_000L);
    assertThat(sampler.values()).containsKey("system.memory.used");
    assertThat(sampler.stealWarning()).isEmpty();
  }

  @Tag("slow") // forks a JVM and records for 3 s
  @Test
  void aRealRunRecordsMachineAndProcessGaugesEverySecond() throws Exception {
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                Spinner.class.getName())
            .start();
    try {
      RunRecorder run =
          RunRecorder.open(
              RunOptions.of("sys")
                  .withBaseDirectory(dir)
                  .withFlushInterval(Duration.ofMillis(600)));
      SystemSampler.install(
          run,
          SystemSampler.Options.defaults()
              .watching(List.of(WatchedProcess.ofPid(child.pid(), "spinner"))));
      Thread.sleep(3_000);
      run.close();
      RunRecord record = RunRecordReader.read(run.directory());
      assertThat(record.manifest().health()).containsKey(SystemSampler.HEALTH_KEY);
      if (Files.isReadable(Path.of("/proc/stat"))) {
        assertThat(record.gaugeNames())
            .contains(
                "system.cpu.user",
                "system.cpu.steal",
                "system.cpu.0.idle",
                "system.memory.used",
                "system.net.lo.rx",
                "process.injector.rss",
                "process.spinner.cpu");
        double[] spinner = record.gauge("process.spinner.cpu");
        // the child spins one thread: close to 100% of one core once it runs (shared machine)
        double max = java.util.Arrays.stream(spinner).filter(Double::isFinite).max().orElse(0);
        assertThat(max).isGreaterThan(30);
        double[] rss = record.gauge("process.injector.rss");
        assertThat(rss[rss.length - 1]).isGreaterThan(10e6);
      }
    } finally {
      child.destroyForcibly();
    }
  }

  /** A child process that keeps one core busy for a while. */
  public static final class Spinner {
    public static void main(String[] args) {
      long end = System.nanoTime() + 30_000_000_000L;
      long x = 0;
      while (System.nanoTime() < end) {
        x += System.nanoTime() % 7;
      }
      System.out.println(x);
    }
  }
}
