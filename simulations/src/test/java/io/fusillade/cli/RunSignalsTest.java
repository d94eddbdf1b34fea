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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signals to the real {@code fusillade run} process, as a terminal and a CI job send them, during a
 * rate-mode run on the embedded PostgreSQL that the Gatling JVM starts: Ctrl-C (SIGINT to the
 * process group), SIGTERM to the CLI only, and a second Ctrl-C. (SIGKILL of the CLI: {@link
 * OrphanTest}.) Each: the exit code within a bound, the record's status, a readable summary, and no
 * server process left (by {@code ps}: no command line naming the run's output or its server
 * directories).
 *
 * <p>Linux only, like the embedded servers' orphan handling: the CLI is started in a session of its
 * own ({@code setsid}), so that the group signal reaches it and its children only, and with SIGINT
 * at its default ({@code env --default-signal}: a JVM keeps ignoring a signal ignored at its start,
 * as it is for a background job).
 */
@Tag("slow")
class RunSignalsTest {
  @TempDir Path dir;

  private final List<Process> started = new ArrayList<>();

  /** A failed test leaves no CLI, Gatling JVM or server running (its directory is deleted). */
  @AfterEach
  void killWhatIsLeft() {
    for (Process cli : started) {
      if (cli.isAlive()) {
        cli.descendants().forEach(ProcessHandle::destroyForcibly);
        cli.destroyForcibly();
      }
    }
    io.fusillade.local.LocalServers.stopOrphans(Duration.ofSeconds(5));
  }

  /** A rate-mode SQL workload of two minutes on the embedded PostgreSQL. */
  private static final String SQL =
      """
      tables_schema:
        - name: sig
          row_count: 50
          columns:
            - {name: id, type: integer, range: [1, 50], unique: true}
          primary_keys: [id]
      queries:
        - name: by id
          sql: select id from sig where id = $1::integer
          params:
            - {type: integer, range: [1, 50]}
      load: {mode: rate, rate: 50, duration: 120s}
      checks: []
      """;

  /** A topic written and read for two minutes on the embedded Kafka (a node in its own JVM). */
  private static final String TOPICS =
      """
      topics:
        - name: sig
          consumers: 1
          message_size: 100
          rate: 50
          duration: 120s
      checks: []
      """;

  /** Two minutes of log ingest into the embedded OpenSearch (inside the Gatling JVM). */
  private static final String LOGS =
      """
      logs:
        bulk_size: 100
        rate: 2
        duration: 120s
      checks: []
      """;

  /** The CLI running a workload, and what it left. */
  private final class Run {
    final Path output = dir.resolve("out");
    final Path console = dir.resolve("console.txt");
    final Process cli;
    final List<Path> serverDirectories = new ArrayList<>();
    long gatlingPid;
    long signalledAt;

    Run(String yaml) throws Exception {
      Path workload = dir.resolve("signals.yml");
      Files.writeString(workload, yaml);
      List<String> command = new ArrayList<>(List.of("setsid"));
      if (envResetsSignals()) {
        command.addAll(List.of("env", "--default-signal=INT"));
      }
      command.addAll(
          CliProcess.command(
              "run", workload.toString(), "--gatling-report", "--output", output.toString()));
      cli =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(console.toFile())
              .start();
      started.add(cli);
    }

    /** Waits until requests are being sent, and notes the Gatling JVM and its servers. */
    void awaitLoad() throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!console().contains("started...")) {
        assertThat(cli.isAlive()).as(console()).isTrue();
        assertThat(System.nanoTime()).as(console()).isLessThan(deadline);
        Thread.sleep(200);
      }
      Thread.sleep(2_000); // some requests
      findServers();
      assertThat(serverDirectories).as("the embedded server's directory").isNotEmpty();
    }

    /** Notes the Gatling JVM under the CLI, and the server directories it owns, if any yet. */
    void findServers() throws IOException {
      Optional<ProcessHandle> gatling =
          cli.descendants()
              .filter(
                  p -> commandLine(p).contains(io.fusillade.gatling.GatlingMain.class.getName()))
              .findFirst();
      if (gatling.isEmpty()) {
        return;
      }
      gatlingPid = gatling.get().pid();
      try (Stream<Path> temp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        temp.filter(p -> p.getFileName().toString().startsWith("fusillade-"))
            .filter(p -> owner(p).equals(Optional.of(gatlingPid)))
            .filter(p -> !serverDirectories.contains(p))
            .forEach(serverDirectories::add);
      }
    }

    /** SIGINT to the CLI's process group, as a terminal's Ctrl-C. */
    void controlC() throws Exception {
      signalledAt = System.currentTimeMillis();
      long group = cli.pid(); // setsid: the CLI leads its own group
      assertThat(new ProcessBuilder("kill", "-INT", "--", "-" + group).start().waitFor()).isZero();
    }

    /** SIGTERM to the CLI alone, as a CI job's cancel. */
    void terminate() {
      signalledAt = System.currentTimeMillis();
      cli.destroy();
    }

    /** Waits for the CLI; returns its exit code. */
    int awaitExit(Duration bound) throws Exception {
      boolean exited = cli.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
      long took = System.currentTimeMillis() - signalledAt;
      if (!exited) {
        cli.descendants().forEach(ProcessHandle::destroyForcibly);
        cli.destroyForcibly();
      }
      assertThat(exited).as("exit within " + bound + ": " + console()).isTrue();
      System.out.println("RunSignalsTest: the CLI exited " + took + " ms after the signal");
      return cli.exitValue();
    }

    Path record() throws IOException {
      try (Stream<Path> runs = Files.list(output)) {
        return runs.filter(p -> Files.isRegularFile(p.resolve("run.json")))
            .findFirst()
            .orElseThrow();
      }
    }

    String console() throws IOException {
      return Files.readString(console);
    }

    /** No process left whose command line names the run's output or a server directory. */
    void assertNoOrphans() throws Exception {
      List<String> needles = new ArrayList<>();
      needles.add(output.toString());
      serverDirectories.forEach(d -> needles.add(d.toString()));
      List<String> left = List.of();
      for (int attempt = 0; attempt < 10; attempt++) {
        left = processesNaming(needles);
        if (left.isEmpty()
            && !ProcessHandle.of(gatlingPid).map(ProcessHandle::isAlive).orElse(false)) {
          break;
        }
        Thread.sleep(100);
      }
      assertThat(left).as(console()).isEmpty();
      assertThat(ProcessHandle.of(gatlingPid).map(ProcessHandle::isAlive).orElse(false))
          .as("the Gatling JVM")
          .isFalse();
    }
  }

  @Test
  void controlCStopsTheLoadAndWritesBothReports() throws Exception {
    Run run = new Run(SQL);
    run.awaitLoad();
    run.controlC();
    int code = run.awaitExit(Duration.ofSeconds(60));
    String console = run.console();
    assertThat(code).as(console).isEqualTo(130);
    assertStopped(run, "stopped by SIGINT (Ctrl-C)", "by id");
    assertThat(console).contains("fusillade: the run was stopped by SIGINT (Ctrl-C)");
    run.assertNoOrphans();
  }

  @Test
  void sigtermToTheCliAloneStopsTheGatlingJvmToo() throws Exception {
    Run run = new Run(SQL);
    run.awaitLoad();
    run.terminate();
    int code = run.awaitExit(Duration.ofSeconds(60));
    assertThat(code).as(run.console()).isEqualTo(143);
    assertStopped(run, "stopped by SIGTERM", "by id");
    run.assertNoOrphans();
  }

  /**
   * A SIGINT that reaches the CLI alone (a supervisor's, {@code kill -INT}): the CLI passes it on
   * as SIGTERM, saying which signal it was, and the record says SIGINT as for a terminal's Ctrl-C.
   */
  @Test
  void sigintToTheCliAloneIsRecordedAsSigint() throws Exception {
    Run run = new Run(SQL);
    run.awaitLoad();
    run.signalledAt = System.currentTimeMillis();
    assertThat(new ProcessBuilder("kill", "-INT", Long.toString(run.cli.pid())).start().waitFor())
        .isZero();
    int code = run.awaitExit(Duration.ofSeconds(60));
    assertThat(code).as(run.console()).isEqualTo(130);
    assertStopped(run, "stopped by SIGINT (Ctrl-C)", "by id");
    assertThat(run.console()).doesNotContain("exit code 143");
    run.assertNoOrphans();
  }

  @Test
  void aSecondControlCExitsAtOnceAndLeavesAReadableRecord() throws Exception {
    secondControlC(SQL, "by id");
  }

  @Test
  void controlCWhileTheServerStartsLeavesNoServer() throws Exception {
    Run run = new Run(SQL);
    // As soon as the Gatling JVM has created the embedded PostgreSQL's directory: before the load.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (run.serverDirectories.isEmpty()) {
      assertThat(System.nanoTime()).as(run.console()).isLessThan(deadline);
      run.findServers();
      Thread.sleep(20);
    }
    run.controlC();
    int code = run.awaitExit(Duration.ofSeconds(60));
    assertThat(code).as(run.console()).isEqualTo(130);
    run.assertNoOrphans();
    for (Path directory : run.serverDirectories) {
      assertThat(directory).as("removed").doesNotExist();
    }
  }

  @Test
  void topicsControlCStopsTheRunAndItsKafkaNode() throws Exception {
    Run run = new Run(TOPICS);
    run.awaitLoad();
    run.controlC();
    int code = run.awaitExit(Duration.ofSeconds(90));
    assertThat(code).as(run.console()).isEqualTo(130);
    assertStopped(run, "stopped by SIGINT (Ctrl-C)", "write sig");
    // Stopped before the drain: the delivery says what it could verify, the writes acknowledged by
    // the record's last flush, and counts no unread message as lost. Those are the request table's
    // OK writes and the few acknowledged while that flush ran (noted before they were recorded;
    // once 108 against the table's 107 on a busy machine): at 50 a second, at most three.
    String summary = CliRun.of("summary", run.record().toString()).out();
    java.util.regex.Matcher ok =
        java.util.regex.Pattern.compile("(?m)^write sig +\\d+ +(\\d+) ").matcher(summary);
    java.util.regex.Matcher delivery =
        java.util.regex.Pattern.compile(
                "topic sig: (\\d+) acknowledged, \\d+ received, not verified: the run stopped"
                    + " before the drain; \\d+ acknowledged messages? unread")
            .matcher(summary);
    assertThat(ok.find()).as(summary).isTrue();
    assertThat(delivery.find()).as(summary).isTrue();
    long acknowledged = Long.parseLong(delivery.group(1));
    long okWrites = Long.parseLong(ok.group(1));
    assertThat(acknowledged)
        .as("acknowledged: the table's OK and those acknowledged during the last flush; " + summary)
        .isBetween(okWrites, okWrites + 3);
    assertThat(summary).doesNotContain(" lost");
    run.assertNoOrphans();
  }

  @Test
  void topicsSecondControlCLeavesNoKafkaNode() throws Exception {
    secondControlC(TOPICS, "write sig");
  }

  @Test
  void logsSecondControlCLeavesNoOpenSearch() throws Exception {
    secondControlC(LOGS, "bulk");
  }

  /** Ctrl-C twice, 200 ms apart: out at once, a readable record, no server left. */
  private void secondControlC(String workload, String request) throws Exception {
    Run run = new Run(workload);
    run.awaitLoad();
    run.controlC();
    Thread.sleep(200);
    run.controlC();
    int code = run.awaitExit(Duration.ofSeconds(5));
    assertThat(code).as(run.console()).isEqualTo(130);
    run.assertNoOrphans();
    // The first Ctrl-C closes the record as aborted within a few hundred ms; when the second
    // comes before that, run.json still says running, and its process is gone: incomplete.
    Path record = run.record();
    RunStatus status = RunRecordReader.read(record).manifest().status();
    System.out.println("RunSignalsTest: after a second Ctrl-C the record reads " + status);
    assertThat(status).isIn(RunStatus.ABORTED, RunStatus.INCOMPLETE);
    CliRun summary = CliRun.of("summary", record.toString());
    assertThat(summary.exitCode()).as(summary.err()).isEqualTo(3);
    assertThat(summary.out())
        .containsAnyOf("INCOMPLETE: the run was killed", "ABORTED before its end")
        .contains(request);
  }

  /** Aborted with the reason, ended within 2 s of the signal, and both reports written. */
  private static void assertStopped(Run run, String reason, String request) throws Exception {
    Path record = run.record();
    RunManifest manifest = RunRecordReader.read(record).manifest();
    assertThat(manifest.status()).as(run.console()).isEqualTo(RunStatus.ABORTED);
    assertThat(manifest.statusReason()).isEqualTo(reason);
    long stoppedAfter = manifest.endEpochMs() - run.signalledAt;
    System.out.println("RunSignalsTest: the record ended " + stoppedAfter + " ms after the signal");
    assertThat(stoppedAfter).as(run.console()).isLessThan(2_000);
    assertThat(record.resolve("report").resolve("index.html")).isRegularFile();
    try (Stream<Path> gatling = Files.walk(run.output.resolve("gatling"))) {
      assertThat(gatling.filter(p -> p.getFileName().toString().equals("index.html")).count())
          .as("Gatling's report: " + run.console())
          .isEqualTo(1);
    }
    CliRun summary = CliRun.of("summary", record.toString());
    assertThat(summary.exitCode()).isEqualTo(3);
    assertThat(summary.out()).contains("ABORTED").contains(request);
  }

  /** A process's command line, from /proc (ProcessHandle.Info may leave the arguments out). */
  private static String commandLine(ProcessHandle process) {
    try {
      return Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"))
          .replace('\0', ' ');
    } catch (IOException e) {
      return process.info().commandLine().orElse("");
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

  /** {@code ps} lines (other than this JVM's) whose command line contains one of the needles. */
  private static List<String> processesNaming(List<String> needles) throws Exception {
    Process ps = new ProcessBuilder("ps", "-eo", "pid=,args=").redirectErrorStream(true).start();
    String listing = new String(ps.getInputStream().readAllBytes());
    ps.waitFor();
    String self = Long.toString(ProcessHandle.current().pid());
    return listing
        .lines()
        .filter(line -> !line.strip().startsWith(self + " "))
        .filter(line -> needles.stream().anyMatch(line::contains))
        .toList();
  }

  private static boolean envResetsSignals() {
    try {
      return new ProcessBuilder("env", "--default-signal=INT", "true").start().waitFor() == 0;
    } catch (IOException | InterruptedException e) {
      return false;
    }
  }
}
