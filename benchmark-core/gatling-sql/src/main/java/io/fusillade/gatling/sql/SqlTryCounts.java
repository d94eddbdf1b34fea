package io.fusillade.gatling.sql;

import io.fusillade.record.RunRecorder;
import io.fusillade.record.Status;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlTries;
import java.time.Duration;

/**
 * pgbench's counts of retries and failures, in the run record's counters, each made at its first
 * use (a run without any has none):
 *
 * <ul>
 *   <li>{@value #RETRIED}: requests sent more than once;
 *   <li>{@value #RETRIES_SERIALIZATION} and {@value #RETRIES_DEADLOCK}: the tries that failed with
 *       a serialization failure (SQLState 40001) or a deadlock (40P01) and were tried again;
 *   <li>{@value #FAILED_SERIALIZATION} and {@value #FAILED_DEADLOCK}: requests that failed so at
 *       their last try (after {@code maxTries}, or at once with one try);
 *   <li>{@value #LATE}: OK requests slower than the latency limit (pgbench's "above the latency
 *       limit").
 * </ul>
 *
 * <p>So the server's serialization failures are {@value #RETRIES_SERIALIZATION} plus {@value
 * #FAILED_SERIALIZATION}. The run's parameters {@code sql.maxTries} and {@code sql.latencyLimit}
 * say what the run allowed; the reports print them as pgbench does ({@code
 * io.fusillade.reports.runs.SqlTries}, which reads these names).
 */
final class SqlTryCounts {
  static final String RETRIED = "sql retried";
  static final String RETRIES_SERIALIZATION = "sql retries serialization";
  static final String RETRIES_DEADLOCK = "sql retries deadlock";
  static final String FAILED_SERIALIZATION = "sql failures serialization";
  static final String FAILED_DEADLOCK = "sql failures deadlock";
  static final String LATE = "sql late";

  private final RunRecorder recorder;

  SqlTryCounts(RunRecorder recorder) {
    this.recorder = recorder;
  }

  /**
   * Declares the run's {@code sql.maxTries} (when above 1) and {@code sql.latencyLimit} (when there
   * is one).
   */
  static void declare(RunRecorder recorder, int maxTries, Duration latencyLimit) {
    if (maxTries > 1) {
      recorder.parameter("sql.maxTries", maxTries);
    }
    if (latencyLimit != null) {
      recorder.parameter("sql.latencyLimit", latencyLimit.toMillis() + "ms");
    }
  }

  /** Counts a request's retries, and its failure when it failed at its last try so. */
  void record(SqlOutcome outcome) {
    if (!outcome.retried().isEmpty()) {
      recorder.counter(RETRIED).increment();
      for (String state : outcome.retried()) {
        recorder
            .counter(SqlTries.DEADLOCK.equals(state) ? RETRIES_DEADLOCK : RETRIES_SERIALIZATION)
            .increment();
      }
    }
    if (outcome.status() == Status.KO) {
      if (SqlTries.SERIALIZATION_FAILURE.equals(outcome.sqlState())) {
        recorder.counter(FAILED_SERIALIZATION).increment();
      } else if (SqlTries.DEADLOCK.equals(outcome.sqlState())) {
        recorder.counter(FAILED_DEADLOCK).increment();
      }
    }
  }

  /** Counts a request slower than the latency limit. */
  void late() {
    recorder.counter(LATE).increment();
  }
}
