package io.fusillade.scenarios.sql;

import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Picostress's {@code const_rps} mode for any workload file: a constant arrival rate of queries
 * drawn from the workload's mix (each arrival one query), for a duration; latency is measured from
 * each arrival, so a slow database shows as latency, never as a lower rate.
 *
 * <p>Settings: {@code -Dfusillade.workload=FILE -Dfusillade.rate=100 -Dfusillade.duration=60s
 * -Dfusillade.seed=S}, and for a spike test {@code -Dfusillade.peak=500 -Dfusillade.rise=10s
 * -Dfusillade.hold=30s -Dfusillade.fall=10s}: after the constant phase the rate rises to the peak,
 * holds, and falls back. Target properties: see {@link SqlTarget}.
 */
public class SqlRateRun extends Simulation {
  {
    Workload workload = WorkloadProperties.workload();
    long seed = WorkloadProperties.seed(workload);
    int rate = SimulationProperties.integer("fusillade.rate", 100);
    Duration duration = SimulationProperties.duration("fusillade.duration", Duration.ofSeconds(60));
    int peak = SimulationProperties.integer("fusillade.peak", 0);
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("mode", "rate");
    parameters.put("rate", rate);
    parameters.put("durationSeconds", duration.toSeconds());

    List<OpenInjectionStep> steps = new ArrayList<>();
    steps.add(constantUsersPerSec(rate).during(duration));
    if (peak > 0) {
      Duration rise = SimulationProperties.duration("fusillade.rise", Duration.ofSeconds(10));
      Duration hold = SimulationProperties.duration("fusillade.hold", Duration.ofSeconds(30));
      Duration fall = SimulationProperties.duration("fusillade.fall", Duration.ofSeconds(10));
      steps.add(rampUsersPerSec(rate).to(peak).during(rise));
      steps.add(constantUsersPerSec(peak).during(hold));
      steps.add(rampUsersPerSec(peak).to(rate).during(fall));
      parameters.put("peak", peak);
      parameters.put("riseSeconds", rise.toSeconds());
      parameters.put("holdSeconds", hold.toSeconds());
      parameters.put("fallSeconds", fall.toSeconds());
    }
    FusilladeRun.parameters(parameters);

    QueryMix mix = new QueryMix(new WorkloadData(workload, seed));
    ScenarioBuilder arrivals = scenario("rate").exec(sqlCall(session -> mix.next()));
    setUp(arrivals.injectOpen(steps)).protocols(SqlTarget.prepare(workload, seed));
  }
}
