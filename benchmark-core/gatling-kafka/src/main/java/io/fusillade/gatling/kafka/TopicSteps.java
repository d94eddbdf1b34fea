package io.fusillade.gatling.kafka;

import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import io.fusillade.record.SecondCounts;
import io.fusillade.record.Status;
import io.fusillade.record.Tags;
import io.fusillade.topic.LagTrend;
import io.fusillade.topic.TopicClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.HdrHistogram.Histogram;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Judges a stepped run (rate rising in steps) of one topic, the "maximum speed" experiment: for
 * each step, write and read MB/s, the lag trend, lost messages and failed sends, produce and
 * end-to-end percentiles; the verdict is the highest step where lag did not grow, nothing was lost
 * and no send failed.
 *
 * <p>Results go into {@code run.json}: health {@code topic.T.steps} (one entry per step) and {@code
 * topic.T.verdict}.
 */
public final class TopicSteps {
  private static final Logger LOG = LoggerFactory.getLogger(TopicSteps.class);

  private TopicSteps() {}

  /**
   * One step of the injection profile.
   *
   * @param index from 1
   * @param rate the target rate, messages per second
   * @param fromSeconds start, in seconds after the first send
   * @param toSeconds end, in seconds after the first send
   */
  public record Step(int index, double rate, double fromSeconds, double toSeconds) {}

  /**
   * Steps of {@code each} duration, rising from {@code start} by {@code increment}.
   *
   * <p>Example: {@code TopicSteps.rising(1000, 500, 5, Duration.ofSeconds(30))}.
   */
  public static List<Step> rising(double start, double increment, int count, Duration each) {
    List<Step> steps = new ArrayList<>();
    double length = each.toMillis() / 1000.0;
    for (int i = 0; i < count; i++) {
      steps.add(new Step(i + 1, start + i * increment, i * length, (i + 1) * length));
    }
    return steps;
  }

  /**
   * The end hook that judges the steps, for the run API.
   *
   * <pre>{@code
   * FusilladeRun.onEnd(KafkaComponents.class, TopicSteps.judge("events", "write", steps));
   * }</pre>
   */
  public static BiConsumer<KafkaComponents, RunRecorder> judge(
      String topic, String requestName, List<Step> steps) {
    return (components, recorder) ->
        recorder.onFinish(() -> judge(components.client(), recorder, topic, requestName, steps));
  }

  private static void judge(
      TopicClient client, RunRecorder recorder, String topic, String request, List<Step> steps) {
    double first = client.firstSendSeconds();
    if (Double.isNaN(first)) {
      recorder.health("topic." + topic + ".verdict", Map.of("sustainedRate", 0, "why", "no send"));
      return;
    }
    // One pass over the record, through its one reader, keeping the two tags the steps need.
    String produceTag = Tags.request(request, Status.OK);
    String e2eTag = Tags.metric("e2e " + topic);
    long runStart = recorder.startEpochMs();
    List<Timed> intervals = new ArrayList<>();
    RunRecord record =
        RunRecordReader.read(
            recorder.directory(),
            (tag, start, length, histogram) -> {
              if (tag.equals(produceTag) || tag.equals(e2eTag)) {
                intervals.add(new Timed(tag, runStart + Math.round(start * 1000), histogram));
              }
            });
    List<Map<String, Object>> results = new ArrayList<>();
    Step best = null;
    Map<String, Object> bestResult = null;
    for (Step step : steps) {
      double from = first + step.fromSeconds();
      double to = first + step.toSeconds();
      TopicClient.Window w = client.window(topic, from, to);
      long fromMs = client.openEpochMs() + Math.round(from * 1000);
      long toMs = client.openEpochMs() + Math.round(to * 1000);
      Histogram produce = histogram(intervals, produceTag, fromMs, toMs);
      Histogram e2e = histogram(intervals, e2eTag, fromMs, toMs);
      long ko = 0;
      for (SecondCounts s : record.seconds()) {
        if (s.epochMs() > fromMs && s.epochMs() <= toMs) {
          SecondCounts.RequestSecond r = s.requests().get(request);
          ko += r == null ? 0 : r.ko();
        }
      }
      boolean passed = w.lagTrend().verdict() == LagTrend.Verdict.FLAT && w.lost() == 0 && ko == 0;
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("step", step.index());
      m.put("targetRate", step.rate());
      m.put("messagesPerSecond", round(w.messagesPerSecond()));
      m.put("writeMBps", round(w.writeBytesPerSecond() / 1e6));
      m.put("readMBps", round(w.readBytesPerSecond() / 1e6));
      m.put("lagTrend", TopicClient.trendMap(w.lagTrend()));
      m.put("lost", w.lost());
      m.put("failedSends", ko);
      m.put("produceP50Ms", ms(produce, 50));
      m.put("produceP99Ms", ms(produce, 99));
      m.put("e2eP50Ms", ms(e2e, 50));
      m.put("e2eP99Ms", ms(e2e, 99));
      m.put("e2eP999Ms", ms(e2e, 99.9));
      m.put("passed", passed);
      results.add(m);
      if (passed) {
        best = step;
        bestResult = m;
      }
      LOG.info(
          "topic {} step {} at {}/s: write {} MB/s, read {} MB/s, lag {}, lost {}, failed {}, e2e p50 {} ms",
          topic,
          step.index(),
          step.rate(),
          m.get("writeMBps"),
          m.get("readMBps"),
          w.lagTrend().verdict(),
          w.lost(),
          ko,
          m.get("e2eP50Ms"));
    }
    recorder.health("topic." + topic + ".steps", results);
    Map<String, Object> verdict = new LinkedHashMap<>();
    verdict.put("sustainedRate", best == null ? 0 : best.rate());
    verdict.put("step", best == null ? 0 : best.index());
    verdict.put("writeMBps", bestResult == null ? 0 : bestResult.get("writeMBps"));
    verdict.put("rule", "highest step with a flat lag trend, nothing lost and no failed send");
    recorder.health("topic." + topic + ".verdict", verdict);
  }

  /** One interval of {@code latency.hlog}: its tag, its start (epoch ms) and its latencies. */
  private record Timed(String tag, long startEpochMs, Histogram histogram) {}

  /** The latencies of {@code tag} in the intervals that start in {@code [fromMs, toMs)}. */
  private static Histogram histogram(List<Timed> intervals, String tag, long fromMs, long toMs) {
    Histogram sum = new Histogram(3);
    for (Timed interval : intervals) {
      if (interval.tag().equals(tag)
          && interval.startEpochMs() >= fromMs
          && interval.startEpochMs() < toMs) {
        sum.add(interval.histogram());
      }
    }
    return sum;
  }

  private static Object ms(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? null : round(h.getValueAtPercentile(percentile) / 1000.0);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
