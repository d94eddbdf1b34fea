package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A listener sees each flushed interval as the record writes it, and the run's end. */
class FlushListenerTest {
  private static final long MS = 1_000_000L;

  @TempDir Path base;

  /** Sums what it is told, as a live exporter would. */
  private static final class Totals implements FlushListener {
    final Map<String, Long> sent = new HashMap<>();
    final Map<String, Long> ok = new HashMap<>();
    final Map<String, Long> ko = new HashMap<>();
    final Map<String, Long> errors = new HashMap<>();
    final Map<String, Long> metricCounts = new HashMap<>();
    final Map<String, Long> counters = new HashMap<>();
    final Map<String, Double> gauges = new HashMap<>();
    final List<Double> ends = new ArrayList<>();
    final List<String> calls = new ArrayList<>();
    RunStatus closed;

    @Override
    public void request(
        String name, long s, Histogram okLatencies, Histogram koLatencies, Map<String, Long> e) {
      calls.add("request " + name);
      sent.merge(name, s, Long::sum);
      ok.merge(name, okLatencies.getTotalCount(), Long::sum);
      ko.merge(name, koLatencies == null ? 0 : koLatencies.getTotalCount(), Long::sum);
      e.forEach((reason, count) -> errors.merge(reason, count, Long::sum));
    }

    @Override
    public void requestsEnd() {
      calls.add("requestsEnd");
    }

    @Override
    public void metric(String name, Histogram interval) {
      calls.add("metric " + name);
      metricCounts.merge(name, interval.getTotalCount(), Long::sum);
    }

    @Override
    public void counter(String name, long delta) {
      counters.merge(name, delta, Long::sum);
    }

    @Override
    public void gauge(String name, double value) {
      calls.add("gauge " + name);
      gauges.put(name, value);
    }

    @Override
    public void intervalEnd(long epochMs, double elapsedSeconds) {
      calls.add("intervalEnd");
      ends.add(elapsedSeconds);
    }

    @Override
    public void closed(RunStatus status) {
      closed = status;
    }
  }

  @Test
  void everyIntervalAndTheEndReachTheListener() {
    Totals totals = new Totals();
    RunRecorder run =
        RunRecorder.open(
            RunOptions.of("listened")
                .withBaseDirectory(base)
                .withFlushInterval(Duration.ofHours(1)));
    run.listen(totals);
    run.listen(
        new FlushListener() {
          @Override
          public void request(
              String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
            throw new IllegalStateException("a broken listener");
          }
        });
    long now = System.nanoTime();
    RequestChannel q = run.request("q");
    q.sent();
    q.ok(now - 2 * MS, now);
    q.ko(now - 5 * MS, now, "HTTP 503");
    run.metric("lag").recordMicros(10);
    run.counter("rows").add(7);
    run.gauge("depth", () -> 3.5);
    RequestChannel r = run.request("r");
    r.ok(now - MS, now);
    run.flush();
    // requestsEnd once every request name's interval is taken, before the metrics and gauges
    assertThat(totals.calls.subList(0, 2)).containsExactlyInAnyOrder("request q", "request r");
    assertThat(totals.calls.subList(2, totals.calls.size()))
        .containsExactly("requestsEnd", "metric lag", "gauge depth", "intervalEnd");
    assertThat(totals.ok).containsEntry("q", 1L);
    assertThat(totals.ko).containsEntry("q", 1L);
    assertThat(totals.ends).hasSize(1);

    q.sent();
    q.ok(now - 2 * MS, now);
    run.counter("rows").add(3);
    run.close(); // the last interval, then the end

    assertThat(totals.sent).containsEntry("q", 2L);
    assertThat(totals.ok).containsEntry("q", 2L);
    assertThat(totals.ko).containsEntry("q", 1L);
    assertThat(totals.errors).isEqualTo(Map.of("HTTP 503", 1L));
    assertThat(totals.metricCounts).containsEntry("lag", 1L);
    assertThat(totals.counters).containsEntry("rows", 10L);
    assertThat(totals.gauges).containsEntry("depth", 3.5);
    assertThat(totals.ends).hasSize(2);
    assertThat(totals.closed).isEqualTo(RunStatus.COMPLETED);
    // The broken listener stopped neither the others nor the record.
    assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
  }
}
