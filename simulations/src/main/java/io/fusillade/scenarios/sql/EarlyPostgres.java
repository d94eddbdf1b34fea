package io.fusillade.scenarios.sql;

import io.fusillade.gatling.EarlyStart;
import io.fusillade.gatling.EarlyValue;
import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.util.Optional;

/**
 * Starts the embedded PostgreSQL of a workload run (the simulations of this package) while Gatling
 * loads, instead of in the simulation's constructor: the forked JVM's main begins it ({@link
 * EarlyStart}), {@link SqlTarget} takes it. About 1 s sooner to the first request on two cores,
 * where Gatling's own start and the server's each take about that long.
 *
 * <p>It decides as the simulation will: the same workload file and system properties, the same rule
 * ({@link SqlTarget#embedded}). A workload that does not load starts nothing: the simulation
 * reports its problems as before.
 */
public final class EarlyPostgres implements EarlyStart {
  private static volatile EarlyValue<LocalPostgresCluster> started;

  @Override
  public void begin(String simulation) {
    String packageName = simulation.substring(0, Math.max(0, simulation.lastIndexOf('.')));
    if (packageName.equals(SqlRateRun.class.getPackageName())) {
      started = EarlyValue.begin("fusillade-early-postgres", EarlyPostgres::startIfEmbedded);
    }
  }

  private static LocalPostgresCluster startIfEmbedded() {
    RunSettings properties = RunPlan.current().settings();
    if (properties.workload() == null) {
      return null;
    }
    var loaded = WorkloadLoader.load(properties.workload());
    if (!loaded.isValid()) {
      return null;
    }
    Workload workload = loaded.orThrow();
    return SqlTarget.embedded(workload.load().under(properties), workload)
        ? SqlTarget.startEmbedded()
        : null;
  }

  /** The cluster begun early for this run, if one was: the caller's to close. */
  static Optional<LocalPostgresCluster> take() {
    EarlyValue<LocalPostgresCluster> early = started;
    started = null;
    return early == null ? Optional.empty() : Optional.ofNullable(early.take());
  }
}
