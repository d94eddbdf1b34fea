package io.fusillade.workload;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One of the six built-in read-path scenarios ({@link LogsNames#SEARCHES}) named in a workload's
 * {@code logs.searches}, with what the file overrides of the seed's concurrency, duration or
 * iteration count. The runner turns it into the log client's scenario ({@code
 * io.fusillade.scenarios.logs.LogsWorkloadMapping}).
 *
 * @param name the scenario's name, as in {@link LogsNames#SEARCHES}
 * @param concurrency concurrent users, if given
 * @param duration how long each user loops, if given (replaces the seed's iteration count)
 * @param iterations searches per user, if given (replaces the seed's duration)
 */
public record LogSearch(
    String name, OptionalInt concurrency, Optional<Duration> duration, OptionalInt iterations) {}
