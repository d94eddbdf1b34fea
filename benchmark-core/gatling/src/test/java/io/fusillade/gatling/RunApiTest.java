package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the run API takes over from protocol builders: the simulation's name, end hooks, steps. */
class RunApiTest {
  @Test
  void theSimulationIsNamedByGatlingsCommandLine() {
    assertThat(
            FusilladeRun.simulationOfCommand(
                "io.fusillade.gatling.GatlingMain --fusillade-watch-parent -s com.example.Lookups"
                    + " -rf /tmp/r"))
        .isEqualTo("com.example.Lookups");
    assertThat(FusilladeRun.simulationOfCommand("io.gatling.app.Gatling --simulation a.B"))
        .isEqualTo("a.B");
    assertThat(FusilladeRun.simulationOfCommand("io.gatling.app.Gatling -s")).isNull();
    assertThat(FusilladeRun.simulationOfCommand(null)).isNull();
  }

  @Test
  void anEndHookRunsOnTheComponentsOfItsClassOnly() {
    List<Object> seen = new ArrayList<>();
    FusilladeRun.EndHook<CharSequence> hook =
        new FusilladeRun.EndHook<>(CharSequence.class, (c, recorder) -> seen.add(c));
    assertThat(hook.type().isInstance(42)).isFalse();
    hook.run("topic components", null);
    assertThat(seen).containsExactly("topic components");
  }

  @Test
  void injectionStepsLastMoreThanNothing() {
    assertThat(new FusilladeRun.StepPlan(List.of(1.0, 2.0), Duration.ofSeconds(5)).rates())
        .containsExactly(1.0, 2.0);
    assertThatThrownBy(() -> new FusilladeRun.StepPlan(List.of(1.0), Duration.ZERO))
        .hasMessageContaining("more than 0 s");
  }
}
