package io.fusillade.reports.runs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * One topic's results in a run: its end-to-end latency (the metric {@code e2e <topic>} of {@code
 * latency.hlog}, send to receipt) and what its delivery verifier counted. A topic written without
 * consumers has neither; one read by consumers has both.
 *
 * @param topic the topic
 * @param e2e its end-to-end latency, or null when none was recorded
 * @param delivery its delivery counts, or null when none were recorded (no consumers, or a run that
 *     ended before the topic protocol closed)
 */
public record TopicResults(String topic, LatencySummary e2e, Delivery delivery) {
  /** The prefix of end-to-end latency metrics: {@code e2e <topic>}. */
  public static final String E2E_PREFIX = "e2e ";

  /** The name of a topic's end-to-end latency metric. */
  public static String e2eMetric(String topic) {
    return E2E_PREFIX + topic;
  }

  /**
   * The topics of a run: those with an end-to-end latency metric or delivery counts.
   *
   * @param run the run
   * @return sorted by topic; empty for a run without topics
   */
  public static List<TopicResults> of(RunData run) {
    Map<String, Delivery> deliveries = Delivery.of(run);
    TreeSet<String> topics = new TreeSet<>(deliveries.keySet());
    for (String metric : run.metrics().keySet()) {
      if (metric.startsWith(E2E_PREFIX)) {
        topics.add(metric.substring(E2E_PREFIX.length()));
      }
    }
    List<TopicResults> results = new ArrayList<>();
    for (String topic : topics) {
      Histogram e2e = run.metrics().get(e2eMetric(topic));
      results.add(
          new TopicResults(
              topic,
              e2e == null ? null : LatencySummary.of(e2eMetric(topic), e2e),
              deliveries.get(topic)));
    }
    return results;
  }

  /**
   * {@code summary.json}'s {@code topics}: per topic, {@code e2e} (see {@link
   * LatencySummary#toMap()}) and {@code delivery} (see {@link Delivery#toMap()}), each present when
   * recorded.
   *
   * @param topics the topics
   * @return by topic
   */
  public static Map<String, Object> toMap(List<TopicResults> topics) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (TopicResults t : topics) {
      Map<String, Object> one = new LinkedHashMap<>();
      if (t.e2e() != null) {
        one.put("e2e", t.e2e().toMap());
      }
      if (t.delivery() != null) {
        one.put("delivery", t.delivery().toMap());
      }
      m.put(t.topic(), one);
    }
    return m;
  }
}
