package io.fusillade.sql;

import io.fusillade.record.Status;

/**
 * How one request ended.
 *
 * @param endNanos {@link System#nanoTime()} when the last row was read or the failure seen
 * @param rows rows read (queries) or affected (updates, batches, transactions)
 * @param reason for {@link Status#KO}: a short, low-cardinality reason ("SQLState 23505: ...")
 * @param node the index of the node that ran it in its cluster (0 for a single database)
 * @param connectionFailure true when the node could not give a connection (it is down or refusing):
 *     what failover reacts to
 */
public record SqlOutcome(
    Status status, long endNanos, long rows, String reason, int node, boolean connectionFailure) {

  static SqlOutcome ok(long rows) {
    return new SqlOutcome(Status.OK, System.nanoTime(), rows, null, 0, false);
  }

  static SqlOutcome ko(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, false);
  }

  static SqlOutcome connectionFailure(String reason) {
    return new SqlOutcome(Status.KO, System.nanoTime(), 0, reason, 0, true);
  }

  SqlOutcome onNode(int index) {
    return new SqlOutcome(status, endNanos, rows, reason, index, connectionFailure);
  }
}
