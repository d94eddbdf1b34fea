package io.fusillade.record;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Where and how a {@link RunRecorder} writes. Immutable; {@code with*} methods return copies.
 *
 * @param baseDirectory the directory that receives one sub-directory per run
 * @param simulation what runs (a simulation class name or a workload file), written to {@code
 *     run.json}; its last dotted segment names the run directory
 * @param parameters what the run was asked to do (rate, duration, seed, target...)
 * @param flushInterval how often everything is written out; one second unless a test wants faster
 */
public record RunOptions(
    Path baseDirectory, String simulation, Map<String, Object> parameters, Duration flushInterval) {

  /** The property that moves every run record elsewhere than {@code target/fusillade}. */
  public static final String BASE_DIRECTORY_PROPERTY = "fusillade.runs.dir";

  public RunOptions {
    Objects.requireNonNull(baseDirectory, "baseDirectory");
    Objects.requireNonNull(simulation, "simulation");
    parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    if (flushInterval.isNegative() || flushInterval.isZero()) {
      throw new IllegalArgumentException("flushInterval must be positive: " + flushInterval);
    }
  }

  /**
   * Options for a run of {@code simulation} under {@code target/fusillade} (or the directory named
   * by the {@value #BASE_DIRECTORY_PROPERTY} system property), flushed every second.
   */
  public static RunOptions of(String simulation) {
    String base = System.getProperty(BASE_DIRECTORY_PROPERTY, "target/fusillade");
    return new RunOptions(Path.of(base), simulation, Map.of(), Duration.ofSeconds(1));
  }

  public RunOptions withBaseDirectory(Path directory) {
    return new RunOptions(directory, simulation, parameters, flushInterval);
  }

  public RunOptions withParameters(Map<String, ?> more) {
    Map<String, Object> merged = new LinkedHashMap<>(parameters);
    merged.putAll(more);
    return new RunOptions(baseDirectory, simulation, merged, flushInterval);
  }

  public RunOptions withFlushInterval(Duration interval) {
    return new RunOptions(baseDirectory, simulation, parameters, interval);
  }

  /** The short name used in directory names: the simple class name of a simulation. */
  String shortName() {
    String name = simulation;
    int dot = name.lastIndexOf('.');
    if (dot >= 0 && dot < name.length() - 1 && !name.endsWith(".yml") && !name.endsWith(".yaml")) {
      name = name.substring(dot + 1);
    }
    String safe = name.replaceAll("[^A-Za-z0-9._-]", "_");
    return safe.isEmpty() ? "run" : safe;
  }
}
