package io.fusillade.workload;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A read-path scenario of a workload's {@code logs.searches}: one of the six built-in ones ({@link
 * LogsNames#SEARCHES}) with what the file overrides of the seed's concurrency, duration or
 * iteration count, or a read the file writes itself ({@link #read()}). The runner turns it into the
 * log client's scenario ({@code io.fusillade.scenarios.logs.LogsWorkloadMapping}).
 *
 * @param name the scenario's name: as in {@link LogsNames#SEARCHES}, or the file's for a read of
 *     its own
 * @param concurrency concurrent users, if given
 * @param duration how long each user loops, if given (replaces the seed's iteration count)
 * @param iterations searches per user, if given (replaces the seed's duration)
 * @param read the read the file writes itself, or null for a built-in one
 */
public record LogSearch(
    String name,
    OptionalInt concurrency,
    Optional<Duration> duration,
    OptionalInt iterations,
    LogRead read) {

  /** A built-in scenario. */
  public LogSearch(
      String name, OptionalInt concurrency, Optional<Duration> duration, OptionalInt iterations) {
    this(name, concurrency, duration, iterations, null);
  }

  /** Whether the file writes the read itself. */
  public boolean custom() {
    return read != null;
  }
}
