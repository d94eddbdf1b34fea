package io.fusillade.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The target rate read from injection profiles built with Gatling's Java DSL. */
class InjectionProfilesTest {

  static Map<String, Object> parameters(Map<String, Object> recorded, PopulationBuilder... roots)
      throws Exception {
    return InjectionProfiles.parameters(
        Arrays.stream(roots).map(PopulationBuilder::asScala).toList(), recorded);
  }

  static Map<String, Object> parameters(PopulationBuilder... roots) throws Exception {
    return parameters(Map.of(), roots);
  }

  @Test
  void aConstantRateIsTheTarget() throws Exception {
    Map<String, Object> p =
        parameters(scenario("lookups").injectOpen(constantUsersPerSec(500).during(60)));
    assertThat(p).containsEntry("rate", 500).containsEntry("durationSeconds", 60L);
    assertThat(p.get("injection"))
        .isEqualTo(
            List.of(
                Map.of(
                    "scenario", "lookups", "steps", List.of(Map.of("rate", 500, "seconds", 60L)))));
  }

  @Test
  void populationsThatRunTogetherAddUpAndWarmUpsAndOneOffUsersAreNotTargets() throws Exception {
    Map<String, Object> p =
        parameters(
            scenario("good").injectOpen(constantUsersPerSec(40).during(Duration.ofSeconds(3))),
            scenario("broken").injectOpen(constantUsersPerSec(5).during(Duration.ofSeconds(3))),
            scenario("operator").injectOpen(nothingFor(2), atOnceUsers(1)));
    assertThat(p).containsEntry("rate", 45).containsEntry("durationSeconds", 3L);

    Map<String, Object> warmed =
        parameters(
            scenario("warm-up")
                .injectOpen(rampUsersPerSec(50).to(500).during(2))
                .andThen(
                    scenario("measured")
                        .injectOpen(constantUsersPerSec(500).during(Duration.ofMillis(8500)))));
    assertThat(warmed).containsEntry("rate", 500).containsEntry("durationSeconds", 8.5);
    assertThat(warmed.get("injection").toString())
        .isEqualTo(
            "[{scenario=warm-up, steps=[{from=50, to=500, seconds=2}]},"
                + " {scenario=measured, phase=1, steps=[{rate=500, seconds=8.5}]}]");
  }

  @Test
  void stairsAreRecordedAsSteps() throws Exception {
    Map<String, Object> p =
        parameters(
            scenario("writers")
                .injectOpen(
                    incrementUsersPerSec(100).times(3).eachLevelLasting(10).startingFrom(100)));
    assertThat(p)
        .doesNotContainKey("rate")
        .containsEntry("rates", List.of(100, 200, 300))
        .containsEntry("stepSeconds", 10L);
  }

  @Test
  void aSpikeHasNoSingleTargetAndOfSequentialPhasesTheFirstCounts() throws Exception {
    Map<String, Object> spike =
        parameters(
            scenario("rate")
                .injectOpen(
                    constantUsersPerSec(100).during(60),
                    rampUsersPerSec(100).to(500).during(10),
                    constantUsersPerSec(500).during(30),
                    rampUsersPerSec(500).to(100).during(10)));
    assertThat(spike).containsOnlyKeys("injection");

    Map<String, Object> phases =
        parameters(
            scenario("a")
                .injectOpen(constantUsersPerSec(100).during(5))
                .andThen(scenario("b").injectOpen(constantUsersPerSec(200).during(5))));
    assertThat(phases).containsEntry("rate", 100).containsEntry("durationSeconds", 5L);
  }

  @Test
  void whatTheSimulationRecordedWinsAndAClosedModelHasNoRate() throws Exception {
    Map<String, Object> p =
        parameters(
            Map.of("rate", 7), scenario("s").injectOpen(constantUsersPerSec(500).during(60)));
    assertThat(p).containsOnlyKeys("injection");

    Map<String, Object> closed =
        parameters(scenario("c").injectClosed(constantConcurrentUsers(10).during(5)));
    assertThat(closed).containsOnlyKeys("injection");
    assertThat(closed.get("injection"))
        .isEqualTo(List.of(Map.of("scenario", "c", "model", "closed")));
  }
}
