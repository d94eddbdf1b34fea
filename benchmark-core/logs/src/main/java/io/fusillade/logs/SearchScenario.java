package io.fusillade.logs;

import java.time.Duration;

/**
 * One read-path scenario: a search, how many users send it, and for how long or how many times.
 *
 * @param name the request name in reports
 * @param template the body
 * @param users concurrent users, each sending one search after another (a closed model)
 * @param duration how long each user loops, or null when {@code iterations} counts instead
 * @param iterations searches per user when {@code duration} is null
 * @param minHits the fewest hits a search must return to be OK (0: no check)
 * @param aggregation the aggregation whose buckets are checked, or null
 * @param minBuckets the fewest buckets it must have
 */
public record SearchScenario(
    String name,
    SearchTemplate template,
    int users,
    Duration duration,
    int iterations,
    int minHits,
    String aggregation,
    int minBuckets) {

  public SearchScenario {
    if (users < 1) {
      throw new IllegalArgumentException("a search scenario needs at least one user");
    }
    if (duration == null && iterations < 1) {
      throw new IllegalArgumentException("a search scenario needs a duration or iterations");
    }
  }

  /** The same scenario looping for another duration (iteration counts are kept). */
  public SearchScenario withDuration(Duration value) {
    return duration == null
        ? this
        : new SearchScenario(
            name, template, users, value, iterations, minHits, aggregation, minBuckets);
  }

  public SearchScenario withUsers(int value) {
    return new SearchScenario(
        name, template, value, duration, iterations, minHits, aggregation, minBuckets);
  }
}
