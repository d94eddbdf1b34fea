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
 * @param seqDb the same read in seq-db's terms, or null when it has none
 */
public record SearchScenario(
    String name,
    SearchTemplate template,
    int users,
    Duration duration,
    int iterations,
    int minHits,
    String aggregation,
    int minBuckets,
    SeqDbForm seqDb) {

  /**
   * A read in seq-db's terms with seeded parameters: {@code query}'s and {@code offset}'s {@code
   * {{name}}} placeholders are drawn as a {@link SearchTemplate}'s, from streams named like the
   * query DSL body's, so that with one seed both stores are asked for the same pages and ranges.
   *
   * @param base the read's shape: size, window, total, aggregations (its query and offset are
   *     replaced)
   * @param query the seq-ql query
   * @param offset the offset's text, a number or a placeholder
   */
  public record SeqDbForm(SeqDbQuery base, SearchTemplate query, SearchTemplate offset) {
    /** The next read. */
    public SeqDbQuery next() {
      return new SeqDbQuery(
          query.next(),
          base.from(),
          base.to(),
          base.size(),
          Long.parseLong(offset.next().strip()),
          base.withTotal(),
          base.ascending(),
          base.aggregations(),
          base.histogram());
    }

    /** The same form with another seed. */
    public SeqDbForm seed(long value) {
      return new SeqDbForm(base, query.seed(value), offset.seed(value));
    }
  }

  /** A scenario with no seq-db form. */
  public SearchScenario(
      String name,
      SearchTemplate template,
      int users,
      Duration duration,
      int iterations,
      int minHits,
      String aggregation,
      int minBuckets) {
    this(name, template, users, duration, iterations, minHits, aggregation, minBuckets, null);
  }

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
            name, template, users, value, iterations, minHits, aggregation, minBuckets, seqDb);
  }

  public SearchScenario withUsers(int value) {
    return new SearchScenario(
        name, template, value, duration, iterations, minHits, aggregation, minBuckets, seqDb);
  }
}
