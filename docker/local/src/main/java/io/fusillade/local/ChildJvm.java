package io.fusillade.local;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * What the JVMs the embedded servers run in (each Kafka broker, each OpenSearch node) share: their
 * end with their parent's ({@link #exitWhenParentEnds()}), and their extra options.
 *
 * <p>The options are those of the environment variable {@value #OPTIONS_ENV}, whitespace-separated,
 * after the server's own.
 *
 * <p>For diagnosis (GC logging, {@code -XX:ActiveProcessorCount}) and for this project's tests,
 * which set {@code -XX:TieredStopAtLevel=1}: the C1 compiler alone halves the CPU of the many
 * short-lived JVMs a test suite starts on a 2-core machine (and skip verifying the classes they
 * load, a tenth of it). Never for a measurement: C1's code is slower than C2's once warm.
 * Fusillade's injector JVM ({@code GatlingLauncher}) takes the same variable.
 */
public final class ChildJvm {
  /** The environment variable of the extra options. */
  public static final String OPTIONS_ENV = "FUSILLADE_CHILD_JVM_OPTS";

  private ChildJvm() {}

  /** The exit code of a server JVM whose parent ended first. */
  public static final int PARENT_GONE_EXIT = 129;

  /**
   * Ends this JVM ({@link Runtime#halt}, no shutdown hook: its data is deleted next) as soon as the
   * JVM that started it ends, however that one ends ({@code kill -9} included). Call it first thing
   * in {@code main}: from then on, whatever this JVM is doing (a broker formatting its storage or
   * waiting for its quorum), it is gone within moments of its parent.
   *
   * <p>The parent is watched through this JVM's standard input, a pipe whose only writer is the
   * parent ({@code ProcessBuilder}'s default; a JVM's children inherit no other descriptor): the
   * kernel closes it when the parent dies, and the read here sees its end. So standard input must
   * be that pipe, never a terminal or {@code /dev/null} (which ends at once).
   */
  public static void exitWhenParentEnds() {
    Thread watch =
        new Thread(
            () -> {
              byte[] ignored = new byte[256];
              try {
                while (System.in.read(ignored) >= 0) {
                  // nothing is written: the pipe only ends
                }
              } catch (IOException e) {
                // closed all the same
              }
              Runtime.getRuntime().halt(PARENT_GONE_EXIT);
            },
            "fusillade-parent-watch");
    watch.setDaemon(true);
    watch.start();
  }

  /** The extra options, in order; empty when the variable is unset or blank. */
  public static List<String> extraOptions() {
    return parse(System.getenv(OPTIONS_ENV));
  }

  static List<String> parse(String value) {
    if (value == null || value.isBlank()) {
      return List.of();
    }
    return Arrays.asList(value.strip().split("\\s+"));
  }
}
