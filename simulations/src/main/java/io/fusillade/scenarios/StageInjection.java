package io.fusillade.scenarios;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;

import io.fusillade.record.RunSettings.Stage;
import io.gatling.javaapi.core.OpenInjectionStep;
import java.util.ArrayList;
import java.util.List;

/**
 * A workload's {@code stages} (in {@code load}, a topic or {@code logs}) as Gatling's open
 * injection: a hold is a constant arrival rate, a ramp a linear ramp of the arrival rate; a spike
 * was already read as a hold at its peak. The one translation, so that queries, topics and logs run
 * the same profile the same way.
 */
public final class StageInjection {
  private StageInjection() {}

  /**
   * The injection steps of {@code stages}, in order.
   *
   * @param stages ramps and holds of arrivals per second
   * @return one open injection step per stage
   */
  public static List<OpenInjectionStep> of(List<Stage> stages) {
    List<OpenInjectionStep> steps = new ArrayList<>();
    for (Stage stage : stages) {
      steps.add(
          stage.isHold()
              ? constantUsersPerSec(stage.from()).during(stage.duration())
              : rampUsersPerSec(stage.from()).to(stage.to()).during(stage.duration()));
    }
    return steps;
  }
}
