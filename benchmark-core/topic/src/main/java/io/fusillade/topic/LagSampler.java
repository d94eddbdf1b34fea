package io.fusillade.topic;

import io.fusillade.record.Counter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Consumer lag of one topic, sampled once a second: the partitions' end offsets (from the brokers)
 * minus the consumers' positions (what they have read), summed over partitions, in messages.
 *
 * <p>Sampling runs on its own thread with a bounded wait, so a dead broker costs a missing sample,
 * never a stalled run record; {@link #current()} is what the run record's gauge reads.
 */
final class LagSampler {
  private final Admin admin;
  private final String topic;
  private final AtomicLongArray positions;
  private final Counter produced;
  private final Counter producedBytes;
  private final Counter consumedBytes;
  private final DeliveryVerifier verifier;
  private final long startNanos;
  private final List<Point> points = new ArrayList<>(); // guarded by this
  private volatile double current = Double.NaN;

  LagSampler(
      Admin admin,
      String topic,
      AtomicLongArray positions,
      ProducedTopic produced,
      Counter consumedBytes,
      long start) {
    this.admin = admin;
    this.topic = topic;
    this.positions = positions;
    this.produced = produced.messages();
    this.producedBytes = produced.bytes();
    this.verifier = produced.verifier();
    this.consumedBytes = consumedBytes;
    this.startNanos = start;
  }

  /**
   * A sample: seconds since the start, lag in messages (NaN when the brokers did not answer), and
   * totals so far: messages and bytes produced, bytes consumed, the verifier's marks.
   */
  record Point(
      double seconds,
      double lag,
      long produced,
      long producedBytes,
      long consumedBytes,
      Map<Object, Long> marks) {}

  /** The last sampled lag (NaN before the first sample or while the brokers do not answer). */
  double current() {
    return current;
  }

  /**
   * Takes one sample; called once a second.
   *
   * @param brokersDown every broker endpoint refuses connections: the lag is unknown (NaN) without
   *     asking, rather than after the admin client's timeout
   */
  void sample(boolean brokersDown) {
    Map<TopicPartition, Long> ends = brokersDown ? null : endOffsets(900);
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    if (ends == null) {
      current = Double.NaN;
      synchronized (this) {
        points.add(point(seconds, Double.NaN));
      }
      return;
    }
    long lag = 0;
    for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
      long position = positions.get(e.getKey().partition());
      if (position >= 0) {
        lag += Math.max(0, e.getValue() - position);
      }
    }
    current = lag;
    synchronized (this) {
      points.add(point(seconds, lag));
    }
  }

  private Point point(double seconds, double lag) {
    return new Point(
        seconds,
        lag,
        produced.total(),
        producedBytes.total(),
        consumedBytes.total(),
        verifier.marks());
  }

  /** The partitions' end offsets, or null if the brokers did not answer in time. */
  Map<TopicPartition, Long> endOffsets(int timeoutMs) {
    Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    for (int p = 0; p < positions.length(); p++) {
      request.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    try {
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result =
          admin
              .listOffsets(request, new ListOffsetsOptions().timeoutMs(timeoutMs))
              .all()
              .get(timeoutMs + 100L, TimeUnit.MILLISECONDS);
      Map<TopicPartition, Long> ends = new HashMap<>();
      result.forEach((tp, info) -> ends.put(tp, info.offset()));
      return ends;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      return null;
    }
  }

  /** The samples so far. */
  synchronized List<Point> points() {
    return List.copyOf(points);
  }

  /** The lag trend between two times (seconds since the start). */
  LagTrend.Result trend(double fromSeconds, double toSeconds) {
    List<Point> window =
        points().stream()
            .filter(p -> p.seconds() >= fromSeconds && p.seconds() <= toSeconds)
            .toList();
    List<LagTrend.Sample> samples = new ArrayList<>();
    window.stream()
        .filter(p -> !Double.isNaN(p.lag()))
        .forEach(p -> samples.add(new LagTrend.Sample(p.seconds(), p.lag())));
    double rate = 0;
    if (window.size() >= 2) {
      Point first = window.get(0);
      Point last = window.get(window.size() - 1);
      double span = last.seconds() - first.seconds();
      rate = span > 0 ? (last.produced() - first.produced()) / span : 0;
    }
    return LagTrend.of(samples, rate);
  }
}
