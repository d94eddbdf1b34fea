package io.fusillade.sql;

import io.fusillade.record.Status;

/**
 * How one statement ended.
 *
 * @param endNanos {@link System#nanoTime()} when the last row was read or the failure seen
 * @param rows rows read (queries) or affected (updates)
 * @param reason for {@link Status#KO}: a short, low-cardinality reason ("SQLState 23505: ...")
 */
public record SqlOutcome(Status status, long endNanos, long rows, String reason) {

  static SqlOutcome ok(long rows) {
    return new SqlOutcome(Status.OK, System.nanoTime(), rows, null);
  }

  static SqlOutcome ko(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason);
  }
}
