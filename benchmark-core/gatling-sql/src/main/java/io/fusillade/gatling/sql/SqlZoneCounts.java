package io.fusillade.gatling.sql;

import io.fusillade.record.Counter;
import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.Status;
import io.fusillade.sql.SqlOutcome;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The requests of each zone of a cluster whose nodes have zones: the metric {@code sql zone <zone>}
 * (the latencies of the requests its nodes ran, from their due times) and the counters {@code sql
 * zone <zone> ok} and {@code ... ko}, so that zone-aware balancing shows where the requests went
 * and what the distant zone cost. Recorded from a zone's first request: a zone that served none has
 * none. The run's {@code sql.zones} parameter maps each node to its zone.
 */
final class SqlZoneCounts {
  /** No zones: records nothing. */
  private static final SqlZoneCounts NONE = new SqlZoneCounts(new String[0], null);

  private final String[] zoneOf; // by node: its metric "sql zone eu-1"; null without a zone
  private final String[] okOf; // by node: "sql zone eu-1 ok"
  private final String[] koOf;
  private final RunRecorder recorder;

  private SqlZoneCounts(String[] zoneOf, RunRecorder recorder) {
    this.zoneOf = zoneOf;
    this.okOf = new String[zoneOf.length];
    this.koOf = new String[zoneOf.length];
    for (int i = 0; i < zoneOf.length; i++) {
      okOf[i] = zoneOf[i] == null ? null : zoneOf[i] + " ok";
      koOf[i] = zoneOf[i] == null ? null : zoneOf[i] + " ko";
    }
    this.recorder = recorder;
  }

  /**
   * The counts of nodes {@code labels} in {@code zones} (one each, empty for none), with their
   * {@code sql.zones} parameter; nothing when no node has a zone.
   */
  static SqlZoneCounts of(List<String> labels, List<String> zones, RunRecorder recorder) {
    if (zones.stream().allMatch(String::isEmpty)) {
      return NONE;
    }
    String[] zoneOf = new String[zones.size()];
    Map<String, String> byNode = new LinkedHashMap<>();
    for (int i = 0; i < zones.size(); i++) {
      zoneOf[i] = zones.get(i).isEmpty() ? null : "sql zone " + zones.get(i);
      byNode.put(labels.get(i), zones.get(i));
    }
    recorder.parameter("sql.zones", byNode);
    return new SqlZoneCounts(zoneOf, recorder);
  }

  /** Records a request node {@code node} ran, due at {@code startNanos}. */
  void record(int node, long startNanos, SqlOutcome outcome) {
    if (node >= zoneOf.length || zoneOf[node] == null) {
      return;
    }
    // made at the zone's first request: a zone that served none shows nothing
    LatencyMetric latency = recorder.metric(zoneOf[node]);
    latency.record(startNanos, outcome.endNanos());
    Counter counter = recorder.counter(outcome.status() == Status.OK ? okOf[node] : koOf[node]);
    counter.increment();
  }
}
