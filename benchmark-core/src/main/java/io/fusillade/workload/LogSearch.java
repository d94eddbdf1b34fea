package io.fusillade.workload;

import io.fusillade.logs.LogSearches;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.WebLogs;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One of the six built-in read-path scenarios ({@link LogSearches#NAMES}) named in a workload's
 * {@code logs.searches}, with what the file overrides of the seed's concurrency, duration or
 * iteration count.
 *
 * @param name the scenario's name, as in {@link LogSearches#NAMES}
 * @param concurrency concurrent users, if given
 * @param duration how long each user loops, if given (replaces the seed's iteration count)
 * @param iterations searches per user, if given (replaces the seed's duration)
 */
public record LogSearch(
    String name, OptionalInt concurrency, Optional<Duration> duration, OptionalInt iterations) {

  /**
   * The scenario with the file's overrides applied.
   *
   * @param logs the generator the index was filled from
   * @param documents how many documents the index holds
   * @param seed the seed of the search parameters
   * @return the scenario to run
   */
  public SearchScenario scenario(WebLogs logs, long documents, long seed) {
    SearchScenario s = LogSearches.web(name, logs, documents, seed).orElseThrow();
    int users = concurrency.orElse(s.users());
    if (duration.isPresent()) {
      return new SearchScenario(
          s.name(),
          s.template(),
          users,
          duration.get(),
          0,
          s.minHits(),
          s.aggregation(),
          s.minBuckets());
    }
    if (iterations.isPresent()) {
      return new SearchScenario(
          s.name(),
          s.template(),
          users,
          null,
          iterations.getAsInt(),
          s.minHits(),
          s.aggregation(),
          s.minBuckets());
    }
    return s.withUsers(users);
  }
}
