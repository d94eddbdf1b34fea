package io.fusillade.local;

import java.util.Arrays;
import java.util.List;

/**
 * Options for the JVMs the embedded servers run in (each Kafka broker, each OpenSearch node): those
 * of the environment variable {@value #OPTIONS_ENV}, whitespace-separated, after the server's own.
 *
 * <p>For diagnosis (GC logging, {@code -XX:ActiveProcessorCount}) and for this project's tests,
 * which set {@code -XX:TieredStopAtLevel=1}: the C1 compiler alone halves the CPU of the many
 * short-lived JVMs a test suite starts on a 2-core machine. Never for a measurement: C1's code is
 * slower than C2's once warm. Fusillade's injector JVM ({@code GatlingLauncher}) takes the same
 * variable.
 */
public final class ChildJvm {
  /** The environment variable of the extra options. */
  public static final String OPTIONS_ENV = "FUSILLADE_CHILD_JVM_OPTS";

  private ChildJvm() {}

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
