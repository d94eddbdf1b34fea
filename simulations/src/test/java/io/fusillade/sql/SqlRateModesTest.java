package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rate mode of a YAML workload with a spike ({@link SqlRateSimulation}, what {@code fusillade
 * run} forks in rate mode) on the embedded PostgreSQL, judged from the run record: a constant rate,
 * then a spike that rises to its peak, holds it for as long as asked and comes back. (A constant
 * rate held second by second, at 1,000/s, is {@link RateAccuracyTest}'s claim.) Tolerances are
 * generous (a shared two-core machine); what they catch is a mode that is ignored or a profile of
 * the wrong shape, not a few percent.
 */
// Paired: its claims are arrivals per second, which a busy machine bends; one other light test
// beside it does not (see cli-tests' pom).
@Tag("paired")
@Tag("slow")
class SqlRateModesTest {
  @TempDir Path base;

  private Path workload() throws Exception {
    Path file = base.resolve("point.yml");
    Files.writeString(
        file,
        """
        queries:
          - sql: select $1::integer as id
            params:
              - {type: Integer, distribution: Uniform, range: [1, 1000]}
        """);
    return file;
  }

  @Test
  void aSpikeRisesToItsPeakHoldsItAndComesBack() throws Exception {
    // 50/s for 5 s, then up to 250/s in 1 s, 3 s at 250/s, down to 50/s in 1 s: 250 + 150 + 750
    // + 150 = 1,300 queries.
    GatlingFork run =
        GatlingFork.run(
            base,
            SqlRateSimulation.class,
            RunSettings.NONE
                .withWorkload(workload())
                .withRate(50)
                .withDuration(Duration.ofSeconds(5))
                .withSpike(
                    new RunSettings.Spike(
                        250, Duration.ofSeconds(1), Duration.ofSeconds(3), Duration.ofSeconds(1)))
                .withSeed(1L)
                .toSystemProperties());
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.record().manifest().parameters())
        .containsEntry("mode", "rate")
        .containsEntry("rate", 50)
        .containsEntry("durationSeconds", 5)
        .containsEntry("peak", 250)
        .containsEntry("holdSeconds", 3);

    RequestTotals queries = run.record().requests().get("query1");
    assertThat(queries.koCount()).isZero();
    assertThat(queries.count()).as("the whole profile").isBetween(1_235L, 1_365L);

    List<ArrivalRates.Interval> seconds = ArrivalRates.of(run.record(), "query1").intervals();
    assertThat(seconds).hasSizeGreaterThanOrEqualTo(8);
    // Before the spike: the constant phase's first whole seconds, at 50/s.
    assertThat(seconds.subList(0, 3))
        .allSatisfy(
            s ->
                assertThat(s.perSecond())
                    .as("arrivals/s before the spike, ending %.1f s into the run", s.endedAt())
                    .isBetween(35.0, 65.0));
    // At the peak: the busiest second is at 250/s, and about 3 seconds are near it (one more or
    // less where the ramps meet the hold inside a second).
    double busiest = seconds.stream().mapToDouble(ArrivalRates.Interval::perSecond).max().orElse(0);
    assertThat(busiest).as("arrivals/s at the peak").isBetween(212.0, 288.0);
    long nearThePeak = seconds.stream().filter(s -> s.perSecond() > 200).count();
    assertThat(nearThePeak).as("seconds above 200/s").isBetween(2L, 4L);
    // The peak comes after the constant phase, not at the start.
    int peakAt = 0;
    for (int i = 0; i < seconds.size(); i++) {
      if (seconds.get(i).perSecond() == busiest) {
        peakAt = i;
      }
    }
    assertThat(seconds.get(peakAt).startedAt() - seconds.get(0).startedAt())
        .as("seconds from the first whole second to the peak")
        .isGreaterThanOrEqualTo(4.0);
  }
}
