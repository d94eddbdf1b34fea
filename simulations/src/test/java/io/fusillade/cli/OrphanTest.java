package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunManifest;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run} killed with SIGKILL (a CI job's hard cancel, the OOM killer) at several
 * moments of a run on embedded servers: nothing of the run is left 3 s later. No Gatling JVM, no
 * Kafka broker or OpenSearch node JVM, no process naming the run's output or a server directory, no
 * server directory; and no run record opens after the kill (a Gatling JVM killed while its brokers
 * started once opened one 43 s later).
 *
 * <p>The moments: while the Gatling JVM loads (before any server), while three brokers start in
 * JVMs of their own, while three OpenSearch nodes start in the Gatling JVM, and while the load runs
 * on a PostgreSQL primary and its replica, two postmasters in sessions of their own (the record
 * then says why it ended). Linux only, as the embedded servers are.
 */
@Tag("slow")
class OrphanTest {
  /** How long after the kill nothing of the run may be left. */
  private static final Duration BOUND = Duration.ofSeconds(3);

  @TempDir Path dir;

  private final List<Process> started = new ArrayList<>();

  /** Three brokers (replication 3), a minute of writes and reads. */
  private static final String TOPICS =
      """
      topics:
        - name: orphans
          partitions: 1
          replication: 3
          consumers: 1
          message_size: 100
          rate: 20
          duration: 60s
      checks: []
      """;

  /**
   * A minute of reads on the embedded PostgreSQL and a streaming replica ({@code --replicas 1}).
   */
  private static final String SQL =
      """
      tables_schema:
        - name: orphans
          row_count: 50
          columns:
            - {name: id, type: integer, range: [1, 50], unique: true}
          primary_keys: [id]
      queries:
        - name: by id
          sql: select id from orphans where id = $1::integer
          params:
            - {type: integer, range: [1, 50]}
      load: {mode: rate, rate: 50, duration: 60s}
      checks: []
      """;

  /** A minute of log ingest into three OpenSearch nodes ({@code --nodes 3}). */
  private static final String LOGS =
      """
      logs:
        bulk_size: 100
        rate: 2
        duration: 60s
      checks: []
      """;

  @AfterEach
  void killWhatIsLeft() {
    for (Process cli : started) {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly();
    }
    io.fusillade.local.LocalServers.stopOrphans(Duration.ofSeconds(5));
  }

  @Test
  void killedWhileTheGatlingJvmLoads() throws Exception {
    Run run = new Run(TOPICS);
    run.killWhen(r -> r.gatling().isPresent());
    run.assertNothingLeft();
    assertThat(run.records()).as("no run record").isEmpty();
  }

  @Test
  void killedWhileThreeBrokersStart() throws Exception {
    Run run = new Run(TOPICS);
    run.killWhen(r -> r.descendantsRunning("io.fusillade.local.KafkaMain") >= 2);
    run.assertNothingLeft();
    assertThat(run.serverDirectories).as("the brokers' directories").hasSizeGreaterThanOrEqualTo(2);
    assertThat(run.records()).as("no run record").isEmpty();
  }

  @Test
  void killedWhileThreeOpenSearchNodesStart() throws Exception {
    Run run = new Run(LOGS, "--nodes", "3");
    run.killWhen(r -> !r.serverDirectories.isEmpty());
    run.assertNothingLeft();
    assertThat(run.records()).as("no run record").isEmpty();
  }

  @Test
  void killedWhileTheLoadRunsClosesTheRecordAsAborted() throws Exception {
    Run run = new Run(SQL, "--replicas", "1");
    run.killWhen(r -> r.console().contains("Fusillade run record:"));
    run.assertNothingLeft();
    List<Path> records = run.records();
    assertThat(records).as("the run's record, no other").hasSize(1);
    RunManifest manifest = RunRecordReader.read(records.get(0)).manifest();
    assertThat(manifest.status()).isEqualTo(RunStatus.ABORTED);
    assertThat(manifest.statusReason())
        .isEqualTo("stopped: the process that started it (pid " + run.cli.pid() + ") ended");
    assertThat(manifest.endEpochMs() - run.killedAt).isBetween(0L, BOUND.toMillis());
    CliRun summary = CliRun.of("summary", records.get(0).toString());
    assertThat(summary.out()).as(summary.err()).contains("ABORTED");
  }

  /** The CLI running a workload in a session of its own, and what it started. */
  private final class Run {
    final Path output = dir.resolve("out");
    final Path console = dir.resolve("console.txt");
    final Process cli;
    final List<Path> serverDirectories = new ArrayList<>();
    List<ProcessHandle> descendants = List.of();
    long gatlingPid;
    long killedAt;

    Run(String yaml, String... options) throws IOException {
      Path workload = dir.resolve("orphans.yml");
      Files.writeString(workload, yaml);
      List<String> command = new ArrayList<>(List.of("setsid"));
      command.addAll(CliProcess.command("run", workload.toString(), "--output", output.toString()));
      command.addAll(List.of(options));
      ProcessBuilder builder =
          new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile());
      // An archive directory of its own: every run here is the first on its class path, whose
      // Gatling JVM dumps its classes when it ends, and still ends at once when orphaned.
      builder.environment().put("FUSILLADE_CDS", dir.resolve("cds").toString());
      cli = builder.start();
      started.add(cli);
    }

    /** Kills the CLI (SIGKILL) as soon as {@code moment} holds, noting what it started. */
    void killWhen(Predicate<Run> moment) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (true) {
        gatling().ifPresent(g -> gatlingPid = g.pid());
        noteServerDirectories();
        if (moment.test(this)) {
          break;
        }
        assertThat(cli.isAlive()).as(console()).isTrue();
        assertThat(System.nanoTime()).as(console()).isLessThan(deadline);
        Thread.sleep(20);
      }
      gatling().ifPresent(g -> gatlingPid = g.pid());
      assertThat(gatlingPid).as("the Gatling JVM").isPositive();
      // Again at the moment itself: a server that started since the last look has its directory
      // (made before the server starts), which the look before the moment could not see.
      noteServerDirectories();
      descendants = cli.descendants().toList();
      killedAt = System.currentTimeMillis();
      cli.destroyForcibly();
    }

    /**
     * Within {@link #BOUND} of the kill: no process that the CLI had started (the Gatling JVM, the
     * broker JVMs, the servers' watchdogs), none naming the output or a server directory (the
     * PostgreSQL that {@code pg_ctl} starts in a session of its own), no server directory.
     */
    void assertNothingLeft() throws Exception {
      List<String> needles = new ArrayList<>(List.of(output.toString()));
      serverDirectories.forEach(d -> needles.add(d.toString()));
      List<String> left;
      boolean directoriesLeft;
      do {
        Thread.sleep(100);
        List<String> now = new ArrayList<>(processesNaming(needles.toArray(String[]::new)));
        descendants.stream()
            .filter(OrphanTest::running)
            .forEach(p -> now.add(p.pid() + " " + commandLine(p.pid())));
        left = now;
        directoriesLeft = serverDirectories.stream().anyMatch(Files::exists);
      } while ((!left.isEmpty() || directoriesLeft)
          && System.currentTimeMillis() - killedAt < BOUND.toMillis());
      long took = System.currentTimeMillis() - killedAt;
      System.out.println(
          "OrphanTest: the run's processes were gone " + took + " ms after the kill");
      assertThat(left).as("processes left after " + BOUND + ": " + console()).isEmpty();
      assertThat(ProcessHandle.of(gatlingPid).filter(OrphanTest::running))
          .as("the Gatling JVM")
          .isEmpty();
      for (Path directory : serverDirectories) {
        assertThat(directory).as("a server directory").doesNotExist();
      }
      Thread.sleep(500); // and nothing comes back
      assertThat(processesNaming(needles.toArray(String[]::new))).isEmpty();
    }

    Optional<ProcessHandle> gatling() {
      return cli.descendants()
          .filter(p -> commandLine(p.pid()).contains("io.fusillade.gatling.GatlingMain"))
          .findFirst();
    }

    /** The server directories the Gatling JVM owns, as they appear. */
    void noteServerDirectories() throws IOException {
      if (gatlingPid == 0) {
        return;
      }
      try (Stream<Path> temp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        temp.filter(p -> p.getFileName().toString().startsWith("fusillade-"))
            .filter(p -> !serverDirectories.contains(p))
            .filter(p -> owner(p).equals(Optional.of(gatlingPid)))
            .forEach(serverDirectories::add);
      }
    }

    /** The run records under the output, now. */
    List<Path> records() throws IOException {
      if (!Files.isDirectory(output)) {
        return List.of();
      }
      try (Stream<Path> runs = Files.list(output)) {
        return runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).toList();
      }
    }

    String console() {
      try {
        return Files.readString(console);
      } catch (IOException e) {
        return "(no console: " + e + ")";
      }
    }

    /** How many processes under the CLI run {@code main}. */
    long descendantsRunning(String main) {
      return cli.descendants().filter(p -> commandLine(p.pid()).contains(main)).count();
    }
  }

  private static Optional<Long> owner(Path serverDirectory) {
    try {
      return Optional.of(
          Long.parseLong(Files.readString(serverDirectory.resolve("owner.pid")).strip()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether a process runs: a zombie (dead, not reaped yet: where nothing reaps orphans it stays
   * one) does not.
   */
  private static boolean running(ProcessHandle process) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException gone) {
      return false;
    }
  }

  /** A process's command line, from /proc; empty once it is gone. */
  private static String commandLine(long pid) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(pid), "cmdline")).replace('\0', ' ');
    } catch (IOException e) {
      return "";
    }
  }

  /** The command lines (other than this JVM's) that contain one of the needles. */
  private static List<String> processesNaming(String... needles) {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != self)
        .map(p -> p.pid() + " " + commandLine(p.pid()))
        .filter(line -> Stream.of(needles).anyMatch(line::contains))
        .toList();
  }
}
