package io.fusillade.gatling;

import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.plan.RunPlanFile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Runs a simulation with Gatling's own launcher ({@code io.gatling.app.Gatling}, through {@link
 * GatlingMain}) in a forked JVM on this JVM's class path, as {@code mvn gatling:test} does. Gatling
 * calls {@code System.exit} at the end of a run, hence the fork. {@code fusillade run} and the
 * tests that run simulations both start Gatling here, so they run with the same JVM flags.
 *
 * <p>Immutable: each {@code with...} returns a copy. For example:
 *
 * <pre>{@code
 * int exit = GatlingLauncher.of(SqlRateRun.class)
 *     .withProperties(settings.toSystemProperties())
 *     .withRunsDirectory(output)
 *     .withResults(output.resolve("gatling"))
 *     .run();
 * }</pre>
 *
 * @param simulation the simulation's class name
 * @param properties system properties of the forked JVM ({@code -Dname=value})
 * @param runsDirectory where Fusillade's run records go ({@code fusillade.runs.dir}), or null for
 *     the default ({@code target/fusillade} of the working directory)
 * @param results where Gatling writes its results ({@code -rf}), or null for its default
 * @param heap the maximum heap ({@code -Xmx}): {@code FUSILLADE_GATLING_HEAP}, else 1g
 * @param leakDetection whether Netty's leak detector stays on (tests); off for real runs
 * @param reports whether Gatling writes its results: its {@code simulation.log} and its HTML report
 *     ({@code -nr} and the console data writer only, when not)
 * @param jvmOptions more JVM options, after the launcher's own
 * @param output a file for the JVM's standard output and error, or null to share this JVM's
 * @param timeout how long to wait for the run, or null to wait for as long as it takes
 * @param plan the run plan handed to the JVM in a private file ({@link RunPlanFile}), or null: the
 *     JVM then reads its settings from the system properties, as under {@code mvn gatling:test}
 */
public record GatlingLauncher(
    String simulation,
    Map<String, String> properties,
    Path runsDirectory,
    Path results,
    String heap,
    boolean leakDetection,
    boolean reports,
    List<String> jvmOptions,
    Path output,
    Duration timeout,
    RunPlan plan) {

  /** Exit codes of Gatling's launcher. */
  public static final int SUCCESS = 0;

  /** Gatling's exit code when the simulation crashed. */
  public static final int CRASHED = 1;

  /** Gatling's exit code when Gatling's assertions failed. */
  public static final int ASSERTIONS_FAILED = 2;

  /** Copies the collections. */
  public GatlingLauncher {
    Objects.requireNonNull(simulation, "simulation");
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    jvmOptions = List.copyOf(jvmOptions);
    Objects.requireNonNull(heap, "heap");
  }

  /** A launcher of {@code simulation} with the defaults of {@code fusillade run}. */
  public static GatlingLauncher of(Class<?> simulation) {
    return of(simulation.getName());
  }

  /**
   * A launcher of the simulation class of that name, with the defaults of {@code fusillade run}.
   */
  public static GatlingLauncher of(String simulation) {
    String heap = System.getenv().getOrDefault("FUSILLADE_GATLING_HEAP", "1g");
    return new GatlingLauncher(
        simulation, Map.of(), null, null, heap, false, true, List.of(), null, null, null);
  }

  /** Adds system properties (later ones win). */
  public GatlingLauncher withProperties(Map<String, String> more) {
    Map<String, String> merged = new LinkedHashMap<>(properties);
    merged.putAll(more);
    return new GatlingLauncher(
        simulation,
        merged,
        runsDirectory,
        results,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  public GatlingLauncher withRunsDirectory(Path directory) {
    return new GatlingLauncher(
        simulation,
        properties,
        directory,
        results,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  public GatlingLauncher withResults(Path directory) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        directory,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  /**
   * Hands the JVM this run plan, in a file only this user can read, deleted by the JVM once read
   * (and by this one when the JVM ends): the settings of {@code fusillade run}, passwords included,
   * never on a command line. The plan's runs directory and progress replace {@link
   * #withRunsDirectory} and the {@code fusillade.progress} property.
   */
  public GatlingLauncher withPlan(RunPlan value) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        output,
        timeout,
        value);
  }

  /** The maximum heap, as {@code -Xmx} takes it: {@code 768m}, {@code 2g}. */
  public GatlingLauncher withHeap(String maximum) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        maximum,
        leakDetection,
        reports,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  /**
   * Keeps Netty's leak detector at its default level (one buffer in 128 sampled), as the tests do
   * to catch leaked buffers; real runs turn it off: its stack traces take CPU from the load.
   */
  public GatlingLauncher withLeakDetection(boolean on) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        on,
        reports,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  /**
   * Without Gatling's results: no {@code simulation.log} and no HTML report ({@code -nr});
   * Fusillade's run record and report are written all the same.
   */
  public GatlingLauncher withoutReports() {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        leakDetection,
        false,
        jvmOptions,
        output,
        timeout,
        plan);
  }

  /** Adds JVM options, such as {@code -Xlog:gc:file=gc.log}. */
  public GatlingLauncher withJvmOptions(List<String> options) {
    List<String> all = new ArrayList<>(jvmOptions);
    all.addAll(options);
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        leakDetection,
        reports,
        all,
        output,
        timeout,
        plan);
  }

  /** Sends the JVM's standard output and error to a file rather than to this JVM's. */
  public GatlingLauncher withOutput(Path file) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        file,
        timeout,
        plan);
  }

  /** Gives up (and kills the JVM) after this long: {@link #run()} then throws. */
  public GatlingLauncher withTimeout(Duration limit) {
    return new GatlingLauncher(
        simulation,
        properties,
        runsDirectory,
        results,
        heap,
        leakDetection,
        reports,
        jvmOptions,
        output,
        limit,
        plan);
  }

  /**
   * The environment variable of more options for the forked JVM, whitespace-separated, before
   * {@link #jvmOptions}: the one the embedded servers' JVMs take too ({@code
   * io.fusillade.local.ChildJvm}). This project's tests set {@code -XX:TieredStopAtLevel=1}.
   */
  public static final String CHILD_JVM_OPTIONS_ENV = "FUSILLADE_CHILD_JVM_OPTS";

  static List<String> childJvmOptions(String value) {
    return value == null || value.isBlank() ? List.of() : List.of(value.strip().split("\\s+"));
  }

  /**
   * The command line of the forked JVM, the plan's file shown as {@code PLAN}. Its standard input
   * must be a pipe that the process starting it holds open for as long as the run may go on (what
   * {@link ProcessBuilder} gives by default): the JVM ends when that pipe does ({@link
   * ParentWatch}).
   */
  public List<String> command() {
    return command(System.getenv(CHILD_JVM_OPTIONS_ENV), Path.of("PLAN"));
  }

  /**
   * The command line, with {@code childJvmOptions} as {@value #CHILD_JVM_OPTIONS_ENV} would be and
   * the plan in {@code planFile}.
   */
  List<String> command(String childJvmOptions, Path planFile) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseParallelGC");
    // Gatling's log writer needs it (the Gatling plugin passes it too), and the plugin's inlining
    // options suit Gatling's Scala code.
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-XX:MaxInlineLevel=20");
    command.add("-XX:MaxTrivialSize=12");
    // One event loop per core rather than Netty's two: the native SQL engine runs its connections
    // on them, and every extra loop is one more thread to wake and switch on a busy machine.
    command.add("-Dio.netty.eventLoopThreads=" + Runtime.getRuntime().availableProcessors());
    if (!leakDetection) {
      // Netty's leak detector records a stack trace for one buffer in 128: CPU the load
      // generator takes from the system under test.
      command.add("-Dio.netty.leakDetection.level=disabled");
    }
    String logConfig = System.getProperty("logback.configurationFile");
    if (logConfig != null) {
      command.add("-Dlogback.configurationFile=" + logConfig);
    }
    command.addAll(childJvmOptions(childJvmOptions));
    command.addAll(jvmOptions);
    if (!reports) {
      // Without Gatling's report, Gatling's simulation.log is not written either: a line per
      // request that nothing reads, and at 20,000/s a parse of 10 s per 400,000 requests at the end
      // when the report is asked for. The console writer stays for its progress every 5 s, unless
      // Fusillade prints the progress itself: then Gatling has no data writer at all (an unknown
      // writer's name is dropped), which saves a thread wake-up per request.
      boolean ownProgress =
          plan != null
              ? plan.outputs().progressSeconds() != null
              : properties.containsKey(PlanProperties.PROGRESS);
      command.add("-Dgatling.data.writers.0=" + (ownProgress ? "none" : "console"));
    }
    if (runsDirectory != null && plan == null) {
      command.add("-D" + PlanProperties.RUNS_DIRECTORY + "=" + runsDirectory.toAbsolutePath());
    }
    properties.forEach(
        (name, value) -> {
          if (!secret(name, value)) {
            command.add("-D" + name + "=" + value);
          }
        });
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GatlingMain.class.getName());
    // The JVM ends with this one, whatever it is doing: its standard input is a pipe from here.
    // First, so that it watches from its first instant.
    command.add(GatlingMain.WATCH_PARENT);
    if (plan != null) {
      command.add(GatlingMain.PLAN_OPTION);
      command.add(planFile.toString());
    }
    command.add("-s");
    command.add(simulation);
    if (results != null) {
      command.add("-rf");
      command.add(results.toAbsolutePath().toString());
    }
    if (!reports) {
      command.add("-nr");
    }
    return command;
  }

  /**
   * Whether a property carries a password, which a command line would show to every user of the
   * machine ({@code ps}): the servers to monitor when a URL has a user and password. It goes to the
   * JVM's environment instead, where {@link FusilladeRun} reads it.
   */
  static boolean secret(String name, String value) {
    return name.equals(PlanProperties.MONITOR) && value.contains("@");
  }

  /**
   * Starts the JVM and returns at once, for a caller that manages it itself ({@code fusillade run}
   * forwards signals to it); {@link #timeout()} does not apply.
   *
   * @return the running JVM
   * @throws IOException when the JVM cannot start
   */
  public Process start() throws IOException {
    Path planFile = plan == null ? null : RunPlanFile.write(plan);
    List<String> command = command(System.getenv(CHILD_JVM_OPTIONS_ENV), planFile);
    ClassArchive archive = ClassArchive.forThisJvm();
    if (archive != null) {
      command.addAll(1, archive.options());
    }
    ProcessBuilder builder = new ProcessBuilder(command);
    properties.forEach(
        (name, value) -> {
          if (secret(name, value)) {
            builder.environment().put(PlanProperties.MONITOR_ENVIRONMENT, value);
          }
        });
    // Standard input stays a pipe from this JVM, never closed: its end tells the fork this JVM is
    // gone (ParentWatch), and stop() writes the signal being passed on into it.
    if (output == null) {
      builder
          .redirectOutput(ProcessBuilder.Redirect.INHERIT)
          .redirectError(ProcessBuilder.Redirect.INHERIT);
    } else {
      builder.redirectErrorStream(true).redirectOutput(output.toFile());
    }
    Process process;
    try {
      process = builder.start();
    } catch (IOException | RuntimeException e) {
      if (planFile != null) {
        RunPlanFile.delete(planFile);
      }
      throw e;
    }
    if (planFile != null) {
      // The JVM deletes it once read; should it die first, it goes with it.
      process.onExit().thenRun(() -> RunPlanFile.delete(planFile));
    }
    if (archive != null) {
      process.onExit().thenAccept(ended -> archive.ended(ended.exitValue()));
    }
    return process;
  }

  /**
   * Stops a JVM of {@link #start()} as the signal this JVM received asks: the fork is told which
   * signal it was (on its standard input), then sent SIGTERM, so that its record says {@code
   * stopped by SIGINT (Ctrl-C)} for a Ctrl-C that reached this JVM alone, as for one that reached
   * both (a SIGINT of its own would count as a second Ctrl-C there, which exits at once).
   *
   * @param process the forked JVM
   * @param signal the signal's name without {@code SIG}: {@code INT}, {@code TERM}
   */
  public static void stop(Process process, String signal) {
    try {
      java.io.OutputStream in = process.getOutputStream();
      in.write((signal + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      in.flush();
    } catch (IOException e) {
      // the fork has ended, or no longer reads: SIGTERM all the same
    }
    // SIGTERM through the handle: Process.destroy also closes the fork's standard input, which it
    // takes for this JVM's end (ParentWatch), not for a stop with reports
    process.toHandle().destroy();
  }

  /**
   * Runs the simulation and waits for it.
   *
   * @return the JVM's exit code: {@link #SUCCESS}, {@link #CRASHED} (a crash, or a run that failed:
   *     see {@link FusilladeRun}), {@link #ASSERTIONS_FAILED} (a Gatling assertion or a Fusillade
   *     check failed)
   * @throws IOException when the JVM cannot start, or it ran past the time-out (it is killed)
   * @throws InterruptedException when this thread is interrupted while waiting (the JVM is killed)
   */
  public int run() throws IOException, InterruptedException {
    Process process = start();
    try {
      if (timeout == null) {
        return process.waitFor();
      }
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IOException(simulation + " did not finish within " + timeout);
      }
      return process.exitValue();
    } finally {
      if (process.isAlive()) {
        process.destroyForcibly();
      }
    }
  }
}
