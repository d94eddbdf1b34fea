package io.fusillade.starve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultSchedule;
import io.fusillade.local.LocalPostgres;
import io.fusillade.scenarios.LocalFaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A starved embedded PostgreSQL measures slower (a CPU-bound query's time, with and without), by
 * each mechanism this machine allows, and gets its CPU back when the starvation ends: burners gone,
 * quota cgroup removed, affinity restored. Timings: exclusive.
 */
@Tag("exclusive")
@Tag("slow")
class CpuStarvationTest {
  private static LocalPostgres postgres;
  private static Connection connection;

  @BeforeAll
  static void start() throws Exception {
    postgres = LocalPostgres.start();
    connection = postgres.connect();
  }

  @AfterAll
  static void stop() throws Exception {
    connection.close();
    postgres.close();
  }

  /** The median of 3 runs of a query that only computes, in ms. */
  private static double queryMs() throws Exception {
    List<Double> times = new ArrayList<>();
    try (Statement s = connection.createStatement()) {
      for (int i = 0; i < 3; i++) {
        long start = System.nanoTime();
        try (ResultSet r =
            s.executeQuery("select count(*) from generate_series(1, 1500000) g where g % 7 = 3")) {
          r.next();
        }
        times.add((System.nanoTime() - start) / 1e6);
      }
    }
    Collections.sort(times);
    return times.get(1);
  }

  private static String cpusAllowed(long pid) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring("Cpus_allowed_list:".length()).strip();
      }
    }
    throw new AssertionError("no Cpus_allowed_list");
  }

  private static List<String> cgroups() throws Exception {
    List<String> dirs = new ArrayList<>();
    for (Path root : List.of(Path.of("/sys/fs/cgroup"), Path.of("/sys/fs/cgroup/cpu"))) {
      if (Files.isDirectory(root)) {
        try (var list = Files.list(root)) {
          list.map(p -> p.getFileName().toString())
              .filter(n -> n.startsWith("fusillade-starve-" + ProcessHandle.current().pid()))
              .forEach(dirs::add);
        }
      }
    }
    return dirs;
  }

  private void starvedIsSlowerAndRestored(CpuStarve starve) throws Exception {
    long postmaster = postgres.pid().orElseThrow();
    String before = cpusAllowed(postmaster);
    double free = queryMs();
    CpuStarvation starvation =
        CpuStarvation.start(starve, CpuStarvation.detect(starve.mechanism()), postgres::pids);
    double starved;
    List<Process> burners;
    try {
      burners = starvation.burners();
      assertThat(burners).hasSize(starve.burners()).allMatch(Process::isAlive);
      starved = queryMs();
    } finally {
      starvation.close();
    }
    assertThat(starved / free)
        .as("starved %s: %.0f ms vs %.0f ms free", starvation, starved, free)
        .isGreaterThan(1.3);
    assertThat(burners).noneMatch(Process::isAlive);
    assertThat(cpusAllowed(postmaster)).isEqualTo(before);
    assertThat(cgroups()).as("the quota's cgroup is removed").isEmpty();
    assertThat(queryMs() / free).as("the CPU given back").isLessThan(1.3 * starved / free);
  }

  @Test
  void aQuotaSlowsTheServerAndEnds() throws Exception {
    CpuStarvation.Mechanism m;
    try {
      m = CpuStarvation.detect("cgroup");
    } catch (IllegalStateException e) {
      m = null;
    }
    assumeThat(m).as("a writable cgroup file system").isNotNull();
    starvedIsSlowerAndRestored(CpuStarve.parse("cpu=0.5,burners=1,mechanism=cgroup"));
  }

  @Test
  void tasksetAndBurnersSlowTheServerAndEnd() throws Exception {
    assumeThat(Files.isExecutable(Path.of("/usr/bin/taskset"))).isTrue();
    starvedIsSlowerAndRestored(CpuStarve.parse("cpu=1,burners=2,mechanism=taskset"));
  }

  @Test
  void aStarveFaultEndsAfterItsWindow() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    Fault fault = Fault.parse("at 0s starve postgres cpu 0.5 burners 1 for 1500ms");
    assertThat(fault.label()).isEqualTo("starve postgres cpu 0.5 burners 1 for 1500ms");
    try (FaultSchedule schedule =
        FaultSchedule.start(
            List.of(fault),
            Map.of(LocalFaults.POSTGRES, LocalFaults.postgres(postgres)),
            (kind, target, detail) -> events.add(kind + " " + target + ": " + detail))) {
      for (int i = 0; i < 60 && events.size() < 2; i++) {
        Thread.sleep(100);
      }
      assertThat(events).hasSize(2);
      assertThat(events.get(1))
          .startsWith("fault-end starve postgres cpu 0.5 burners 1 for 1500ms: starved: cpu 0.5")
          .endsWith(", then not");
      assertThat(cgroups()).isEmpty();
      assertThat(
              ProcessHandle.current()
                  .descendants()
                  .filter(ProcessHandle::isAlive)
                  .filter(
                      p ->
                          String.join(" ", p.info().arguments().orElse(new String[0]))
                              .contains(CpuStarvation.BURN)))
          .as("no burner left")
          .isEmpty();
    }
  }

  @Test
  void aMachineWithoutTheMechanismIsRefusedBeforeTheRun() {
    assertThat(CpuStarvation.detect("taskset")).isEqualTo(CpuStarvation.Mechanism.TASKSET);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CpuStarve.parse("cpu=0"))
        .hasMessageContaining("above 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CpuStarve.parse("burners=2"))
        .hasMessageContaining("CPUs left to the server are missing");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> Fault.parse("at 5s starve postgres for 10s"))
        .hasMessageContaining("starve postgres cpu 1");
  }
}
