package io.fusillade.scenarios;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.Problem;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The workload file and seed of a workload-driven simulation ({@code fusillade run}), from system
 * properties. Shared by the SQL and logs runners.
 */
public final class WorkloadProperties {
  private WorkloadProperties() {}

  /** {@code -Dfusillade.workload=FILE}, validated: every problem in one message. */
  public static Workload workload() {
    String file = SimulationProperties.string("fusillade.workload", null);
    if (file == null) {
      throw new FusilladeException("no workload: give -Dfusillade.workload=path/to/workload.yml");
    }
    LoadResult result = WorkloadLoader.load(Path.of(file));
    if (!result.isValid()) {
      throw new FusilladeException(
          result.problems().stream().map(Problem::toString).collect(Collectors.joining("\n")));
    }
    Workload workload = result.orThrow();
    FusilladeRun.parameters(Map.of("workload", file));
    return workload;
  }

  /** {@code -Dfusillade.seed}, else the workload's seed, else the default. */
  public static long seed(Workload workload) {
    long seed =
        SimulationProperties.longValue(
            "fusillade.seed", workload.seed().orElse(Workload.DEFAULT_SEED));
    FusilladeRun.parameters(Map.of("seed", seed));
    return seed;
  }
}
