package io.fusillade.record;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Everything a run record holds about one request name, summed over the run.
 *
 * @param ok latencies of successful requests, in microseconds
 * @param ko latencies of failed requests, in microseconds
 * @param sent requests entered (the arrival count), which can exceed ok + ko when the run was cut
 * @param errors failures by reason
 */
public record RequestTotals(
    String name, Histogram ok, Histogram ko, long sent, long bytes, Map<String, Long> errors) {

  public long okCount() {
    return ok.getTotalCount();
  }

  public long koCount() {
    return ko.getTotalCount();
  }

  public long count() {
    return okCount() + koCount();
  }

  /** OK and KO latencies together: what the clients experienced. */
  public Histogram all() {
    Histogram all = ok.copy();
    all.add(ko);
    return all;
  }
}
