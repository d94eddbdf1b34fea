package io.fusillade.reports.runs;

import io.fusillade.record.RequestTotals;
import io.fusillade.reports.format.Numbers;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A SQL run's retries, failures after the last try and late requests, as pgbench reports them
 * ("number of transactions retried", "number of serialization failures", "above the latency
 * limit"), from the counters the SQL protocol records ({@code
 * io.fusillade.gatling.sql.SqlTryCounts} writes them under these names) and its parameters {@code
 * sql.maxTries} and {@code sql.latencyLimit}.
 *
 * @param requests the run's requests (every request name), the share's base
 * @param maxTries the most tries the run allowed (1: no retry)
 * @param latencyLimit the latency limit as the run wrote it ({@code 50ms}), or null
 * @param retried requests sent more than once
 * @param retriesSerialization tries that failed with a serialization failure and were tried again
 * @param retriesDeadlock tries that failed with a deadlock and were tried again
 * @param failuresSerialization requests that failed with a serialization failure at their last try
 * @param failuresDeadlock requests that failed with a deadlock at their last try
 * @param late OK requests slower than the latency limit
 */
public record SqlRetries(
    long requests,
    long maxTries,
    String latencyLimit,
    long retried,
    long retriesSerialization,
    long retriesDeadlock,
    long failuresSerialization,
    long failuresDeadlock,
    long late) {

  static final String RETRIED = "sql retried";
  static final String RETRIES_SERIALIZATION = "sql retries serialization";
  static final String RETRIES_DEADLOCK = "sql retries deadlock";
  static final String FAILURES_SERIALIZATION = "sql failures serialization";
  static final String FAILURES_DEADLOCK = "sql failures deadlock";
  static final String LATE = "sql late";

  /**
   * The counts of a run; empty when it allowed no retry, had no latency limit, and no request
   * failed with a serialization failure or a deadlock (nothing to say).
   */
  public static Optional<SqlRetries> of(RunData run) {
    Map<String, Object> parameters = run.manifest().parameters();
    long maxTries =
        parameters.get("sql.maxTries") instanceof Number n ? Math.max(1, n.longValue()) : 1;
    String limit =
        parameters.get("sql.latencyLimit") == null
            ? null
            : String.valueOf(parameters.get("sql.latencyLimit"));
    long requests = 0;
    for (RequestTotals totals : run.requests().values()) {
      requests += totals.count();
    }
    SqlRetries counts =
        new SqlRetries(
            requests,
            maxTries,
            limit,
            total(run, RETRIED),
            total(run, RETRIES_SERIALIZATION),
            total(run, RETRIES_DEADLOCK),
            total(run, FAILURES_SERIALIZATION),
            total(run, FAILURES_DEADLOCK),
            total(run, LATE));
    boolean any =
        maxTries > 1
            || limit != null
            || counts.failures() > 0
            || counts.retries() > 0
            || counts.late() > 0;
    return any ? Optional.of(counts) : Optional.empty();
  }

  private static long total(RunData run, String counter) {
    long[] perSecond = run.counters().get(counter);
    long total = 0;
    if (perSecond != null) {
      for (long n : perSecond) {
        total += n;
      }
    }
    return total;
  }

  /** Every retry: pgbench's "total number of retries". */
  public long retries() {
    return retriesSerialization + retriesDeadlock;
  }

  /** Requests that failed with a serialization failure or a deadlock at their last try. */
  public long failures() {
    return failuresSerialization + failuresDeadlock;
  }

  /** Every serialization failure the server raised: those tried again and those at the last try. */
  public long serializationFailures() {
    return retriesSerialization + failuresSerialization;
  }

  /** Every deadlock the server broke: those tried again and those at the last try. */
  public long deadlockFailures() {
    return retriesDeadlock + failuresDeadlock;
  }

  /**
   * The console's lines, pgbench's in Fusillade's words:
   *
   * <pre>
   * SQL retries (max tries 3): 1040 of 10000 requests retried (10.4%), 1466 retries: serialization 1400, deadlock 66
   * SQL failures after the last try: 186 of 10000 requests (1.9%): serialization 186, deadlock 0
   * SQL late: 25 of 10000 requests above the 50ms latency limit (0.3%)
   * </pre>
   */
  public String lines() {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append(
            String.format(
                Locale.ROOT,
                "SQL retries (max tries %d): %d of %d requests retried (%s), %d retries:"
                    + " serialization %d, deadlock %d",
                maxTries,
                retried,
                requests,
                Numbers.percent(share(retried)),
                retries(),
                retriesSerialization,
                retriesDeadlock))
        .append(nl);
    out.append(
            String.format(
                Locale.ROOT,
                "SQL failures after the last try: %d of %d requests (%s): serialization %d,"
                    + " deadlock %d",
                failures(),
                requests,
                Numbers.percent(share(failures())),
                failuresSerialization,
                failuresDeadlock))
        .append(nl);
    if (latencyLimit != null) {
      out.append(
              String.format(
                  Locale.ROOT,
                  "SQL late: %d of %d requests above the %s latency limit (%s)",
                  late,
                  requests,
                  latencyLimit,
                  Numbers.percent(share(late))))
          .append(nl);
    }
    return out.toString();
  }

  private double share(long count) {
    return requests == 0 ? 0 : (double) count / requests;
  }

  /** {@code summary.json}'s {@code sqlRetries}: every count, and the server's failures. */
  public Map<String, Object> toMap() {
    Map<String, Object> map = new LinkedHashMap<>();
    map.put("requests", requests);
    map.put("maxTries", maxTries);
    map.put("latencyLimit", latencyLimit);
    map.put("retried", retried);
    map.put("retries", retries());
    map.put("retriesSerialization", retriesSerialization);
    map.put("retriesDeadlock", retriesDeadlock);
    map.put("failures", failures());
    map.put("failuresSerialization", failuresSerialization);
    map.put("failuresDeadlock", failuresDeadlock);
    map.put("serializationFailures", serializationFailures());
    map.put("deadlockFailures", deadlockFailures());
    map.put("late", latencyLimit == null ? null : late);
    return map;
  }
}
