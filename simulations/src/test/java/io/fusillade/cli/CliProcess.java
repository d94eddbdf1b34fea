package io.fusillade.cli;

import io.fusillade.gatling.GatlingLauncher;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code fusillade} command in a JVM of its own, for the tests that need a real process (its
 * exit on a signal, its console, its environment): the command line the {@code fusillade} script
 * would run, with this JVM's class path instead of the jar.
 */
public final class CliProcess {
  private CliProcess() {}

  /** The commands whose JVM mostly waits for the run's own JVM (see the script). */
  private static final Set<String> WAITING = Set.of("run", "limit", "ladder", "study");

  /**
   * {@code java [flags] -cp CLASSPATH io.fusillade.cli.FusilladeCommand args...}, a list the caller
   * may add to. The flags are the script's for {@code run}, {@code limit}, {@code ladder} and
   * {@code study}: the C1 compiler alone and the serial collector, which spare a JVM that waits its
   * C2 compilations (about 2 CPU-s of a short run, measured in the script's comment).
   */
  public static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (args.length > 0 && WAITING.contains(args[0])) {
      command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
    }
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    command.add(FusilladeCommand.class.getName());
    command.addAll(List.of(args));
    return command;
  }

  /**
   * Adds {@code options} to the JVM options the command gives the JVMs it starts ({@value
   * GatlingLauncher#CHILD_JVM_OPTIONS_ENV}), after those this JVM was given.
   */
  public static ProcessBuilder withChildJvmOptions(ProcessBuilder builder, String options) {
    String given = builder.environment().getOrDefault(GatlingLauncher.CHILD_JVM_OPTIONS_ENV, "");
    builder.environment().put(GatlingLauncher.CHILD_JVM_OPTIONS_ENV, given + " " + options);
    return builder;
  }
}
