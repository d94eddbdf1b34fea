package io.fusillade.gatling.logs;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.record.Counter;
import io.fusillade.record.RunRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Documents/s and MiB/s per injection step, written to {@code run.json} as parameter {@code steps}:
 * a list of {@code {rate, docsPerSecond, mibPerSecond, wireMibPerSecond}}. It snapshots the
 * counters at each step boundary, counted from when the protocol's components were created (just
 * before injection starts).
 */
final class StepReport implements AutoCloseable {
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "fusillade-logs-steps");
            t.setDaemon(true);
            return t;
          });
  private final List<long[]> snapshots = new ArrayList<>();

  // the runs that have a step report: one per run, whatever the logs protocols it has
  private static final java.util.Set<RunRecorder> REPORTED =
      java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>());

  /**
   * The step report of the run's declared steps ({@link FusilladeRun#injectionSteps}), or null when
   * it declared none or another logs protocol of the run reports them already.
   */
  static StepReport of(RunRecorder recorder) {
    Optional<FusilladeRun.StepPlan> plan = FusilladeRun.stepPlan();
    if (plan.isEmpty()) {
      return null;
    }
    synchronized (REPORTED) {
      if (!REPORTED.add(recorder)) {
        return null;
      }
    }
    return new StepReport(recorder, plan.get().rates(), plan.get().step());
  }

  StepReport(RunRecorder recorder, List<Double> rates, Duration step) {
    Counter docs = recorder.counter(LogsComponents.DOCUMENTS);
    Counter bytes = recorder.counter(LogsComponents.BYTES);
    Counter wire = recorder.counter(LogsComponents.WIRE_BYTES);
    Runnable snap =
        () -> {
          synchronized (snapshots) {
            snapshots.add(new long[] {docs.total(), bytes.total(), wire.total()});
          }
        };
    snap.run();
    long millis = step.toMillis();
    for (int i = 1; i <= rates.size(); i++) {
      timer.schedule(snap, i * millis, TimeUnit.MILLISECONDS);
    }
    recorder.onFinish(
        () -> {
          List<Map<String, Object>> steps = new ArrayList<>();
          double seconds = millis / 1000.0;
          synchronized (snapshots) {
            for (int i = 0; i + 1 < snapshots.size() && i < rates.size(); i++) {
              long[] a = snapshots.get(i);
              long[] b = snapshots.get(i + 1);
              Map<String, Object> m = new LinkedHashMap<>();
              m.put("rate", rates.get(i));
              m.put("docsPerSecond", round((b[0] - a[0]) / seconds));
              m.put("mibPerSecond", round((b[1] - a[1]) / seconds / (1 << 20)));
              m.put("wireMibPerSecond", round((b[2] - a[2]) / seconds / (1 << 20)));
              steps.add(m);
            }
          }
          recorder.parameter("steps", steps);
        });
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
