package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.gatling.FusilladeArrivals;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.sql.SqlDsl;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.scenarios.InjectedChains;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Picostress's {@code const_rps} mode for any workload file: a constant arrival rate of queries
 * drawn from the workload's mix (each arrival one query), for a duration; latency is measured from
 * each arrival, so a slow database shows as latency, never as a lower rate.
 *
 * <p>Settings ({@link RunSettings}): {@code -Dfusillade.workload=FILE -Dfusillade.rate=100
 * -Dfusillade.duration=60s -Dfusillade.seed=S}, and for a spike test {@code -Dfusillade.peak=500
 * -Dfusillade.rise=10s -Dfusillade.hold=30s -Dfusillade.fall=10s}: after the constant phase the
 * rate rises to the peak, holds, and falls back; or {@code
 * -Dfusillade.stages=0..200/10s,200..200/60s} (ramps and holds, in order). The workload's {@code
 * load} section gives what the properties do not. Target properties: see {@link SqlTarget}.
 */
public class SqlRateRun extends Simulation {
  /** Arrivals per second when neither the settings nor the workload give a rate. */
  public static final double DEFAULT_RATE = 100;

  /** How long the constant rate lasts when neither the settings nor the workload say. */
  public static final Duration DEFAULT_DURATION = Duration.ofSeconds(60);

  {
    RunSettings properties = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(properties);
    // The file's load section under the properties: the command line overrides the file.
    RunSettings given = workload.load().under(properties);
    long seed = WorkloadProperties.seed(given, workload);
    // One of several injectors: its part of the rate, and every N-th of the seeded draws.
    InjectorShare share = InjectorShare.current();
    List<Segment> segments = new ArrayList<>();
    Duration length = Duration.ZERO; // the load's, for the injected kinds at a rate
    RunSettings recorded =
        RunSettings.NONE.withWorkload(given.workload()).withSeed(seed).withMode(Mode.RATE);
    if (!given.stages().isEmpty()) {
      for (RunSettings.Stage stage : given.stages()) {
        segments.add(
            new Segment(share.rate(stage.from()), share.rate(stage.to()), stage.duration()));
      }
      recorded = recorded.withStages(given.stages());
      for (RunSettings.Stage stage : given.stages()) {
        length = length.plus(stage.duration());
      }
    } else {
      double rate = given.rate() != null ? given.rate() : DEFAULT_RATE;
      Duration duration = given.duration() != null ? given.duration() : DEFAULT_DURATION;
      RunSettings.Spike spike = given.spike();
      double mine = share.rate(rate);
      segments.add(Segment.constant(mine, duration));
      length = duration;
      if (spike != null) {
        length = length.plus(spike.rise()).plus(spike.hold()).plus(spike.fall());
        double peak = share.rate(spike.peak());
        segments.add(new Segment(mine, peak, spike.rise()));
        segments.add(Segment.constant(peak, spike.hold()));
        segments.add(new Segment(peak, mine, spike.fall()));
      }
      // the rate this injector sends: the merged report sums the injectors' (RateCheck)
      recorded = recorded.withRate(mine).withDuration(duration).withSpike(spike);
    }
    FusilladeRun.settings(recorded);
    WorkloadProperties.declareChecks(given, workload);

    QueryMix mix = new QueryMix(new WorkloadData(workload, seed));
    // The N draws of one arrival in a row: QueryMix's lock, held across them, keeps another
    // thread's arrival from taking one of them (which would shift this injector's share).
    // Sent by a few lanes rather than a virtual user each: a quarter less CPU per request.
    FusilladeArrivals lanes = FusilladeArrivals.of(segments);
    ScenarioBuilder arrivals = lanes.scenario("rate", exec(sqlCall(session -> mix.next(share))));
    var protocol = SqlTarget.prepare(given, workload, seed);
    WorkloadProperties.awaitCommonStart(
        share, SqlTarget.clockOffset(given, workload, share).orElse(null));
    List<PopulationBuilder> populations = new ArrayList<>();
    populations.add(arrivals.injectOpen(lanes.injection()));
    populations.addAll(
        InjectedChains.of(workload.injected(), seed, SqlDsl::injected, share)
            .populations(workload.file(), length));
    setUp(populations).protocols(protocol);
  }
}
