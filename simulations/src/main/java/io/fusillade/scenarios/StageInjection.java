package io.fusillade.scenarios;

import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.gatling.FusilladeArrivals;
import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload's load profiles as the segments of an arrival schedule, sent by the lanes of {@link
 * FusilladeArrivals}: {@code stages} (in {@code load}, a topic or {@code logs}: a hold is a
 * constant rate, a ramp a linear ramp of the rate; a spike was already read as a hold at its peak),
 * steps of rising rates, a constant rate. The one translation, so that queries, topics and logs run
 * the same profile the same way, each arrival counted from its due time.
 */
public final class StageInjection {
  private StageInjection() {}

  /**
   * The segments of {@code stages}, in order.
   *
   * @param stages ramps and holds of arrivals per second
   * @return one segment per stage
   */
  public static List<Segment> of(List<Stage> stages) {
    List<Segment> segments = new ArrayList<>();
    for (Stage stage : stages) {
      segments.add(new Segment(stage.from(), stage.to(), stage.duration()));
    }
    return segments;
  }

  /**
   * Each of {@code rates} (per second) for {@code each}, in turn.
   *
   * @param rates the steps' rates
   * @param each how long each step lasts
   * @return one segment per step
   */
  public static List<Segment> steps(List<Double> rates, Duration each) {
    List<Segment> segments = new ArrayList<>();
    for (double rate : rates) {
      segments.add(Segment.constant(rate, each));
    }
    return segments;
  }

  /**
   * {@code count} steps of {@code each}, from {@code start} per second rising by {@code increment}
   * (as Gatling's {@code incrementUsersPerSec}).
   */
  public static List<Segment> rising(double start, double increment, int count, Duration each) {
    List<Double> rates = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rates.add(start + i * increment);
    }
    return steps(rates, each);
  }
}
