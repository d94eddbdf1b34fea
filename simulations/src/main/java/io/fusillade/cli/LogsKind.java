package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.reports.checks.RunShape;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.logs.LogsPlan;
import io.fusillade.scenarios.logs.LogsRun;
import io.fusillade.scenarios.logs.LogsWorkloadMapping;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.LogSearch;
import io.fusillade.workload.LogsSection;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A workload with a {@code logs} section: its ingest through {@code _bulk}, then its searches; on
 * the {@code --url} nodes, the section's, or an embedded OpenSearch.
 */
record LogsKind() implements WorkloadKind {
  /** How long the searches of a section without a duration are given, each. */
  private static final Duration SEARCH_ALLOWANCE = Duration.ofSeconds(60);

  @Override
  public String label() {
    return "logs";
  }

  @Override
  public void refuseOthers(RunInputs in) {
    refuse(in.sql(), in, "SQL workloads");
    refuse(in.sqlLoad(), in, "SQL workloads");
    if (in.target().user != null) {
      throw new FusilladeException(
          "--user applies to SQL workloads; a log store's credentials go in the logs section"
              + " (user:, password: or api_key:)");
    }
  }

  private static LogsSection section(RunInputs in) {
    return in.workload().logs().orElseThrow();
  }

  private static List<String> urls(RunInputs in) {
    return in.target().urlGiven() ? in.target().urls : section(in).urls();
  }

  /** The ingest the section asks for, with {@code --rate} and {@code --duration} applied. */
  static LogIngest ingest(RunInputs in) {
    Double rate = in.rate() == null ? null : in.rate().rate;
    Duration duration = in.rate() == null ? null : in.rate().duration();
    return LogsPlan.ingest(section(in), rate, duration);
  }

  @Override
  public RunSettings settings(RunInputs in) {
    in.logs().checkTarget(!urls(in).isEmpty());
    ingest(in); // an option that does not apply to this section's ingest is refused here
    return RunSettings.NONE
        .withMode(Mode.LOGS)
        .withWorkload(in.file())
        .withRate(in.rate() == null ? null : in.rate().rate)
        .withDuration(in.rate() == null ? null : in.rate().duration())
        .withSeed(in.seed())
        .withUrls(in.target().urls);
  }

  @Override
  public DefaultChecks defaults(RunInputs in, RunSettings settings) {
    return DefaultChecks.logs(ingest(in));
  }

  @Override
  public RunShape shape(RunInputs in, RunSettings settings) {
    boolean target = ingest(in).mode() == LogIngest.Mode.RATE || in.command().equals("limit");
    return new RunShape(target, false, List.of());
  }

  @Override
  public Map<String, Integer> faultNodes(RunInputs in) {
    if (!urls(in).isEmpty()) {
      return Map.of();
    }
    return Map.of(LocalFaults.OPENSEARCH, in.logs().nodes != null ? in.logs().nodes : 1);
  }

  @Override
  public void checkReachable(RunInputs in, RunSettings settings) {
    List<String> urls = urls(in);
    if (urls.isEmpty()) {
      return;
    }
    try {
      LogsWorkloadMapping.clientOptions(section(in), urls);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("--url: " + e.getMessage());
    }
    for (String url : urls) {
      LogStores.checkReachable(url);
    }
  }

  @Override
  public RunPlan plan(RunPlan plan, RunInputs in) {
    LogsOptions logs = in.logs();
    return plan.withLogs(
        new RunPlan.Logs(
            logs.nodes != null ? logs.nodes : plan.logs().nodes(),
            logs.files != null ? logs.files : plan.logs().files()));
  }

  @Override
  public Class<?> runner(RunSettings settings, boolean limit) {
    return LogsRun.class;
  }

  @Override
  public Duration loadLength(RunSettings settings, RunInputs in) {
    LogIngest ingest = ingest(in);
    Duration length =
        switch (ingest.mode()) {
          case RATE -> ingest.duration();
          case STEPS -> ingest.stepDuration().multipliedBy(ingest.steps().size());
          case STAGES ->
              ingest.stages().stream().map(Stage::duration).reduce(Duration.ZERO, Duration::plus);
          default -> null; // a number of documents: as fast as the store takes them
        };
    if (length == null) {
      return null;
    }
    for (LogSearch search : section(in).searches()) {
      length = length.plus(search.duration().orElse(SEARCH_ALLOWANCE));
    }
    return length;
  }

  @Override
  public Duration drain(RunInputs in) {
    return Duration.ofSeconds(60); // a bulk in flight, the refresh before the searches
  }

  @Override
  public double peakRate(RunSettings settings, RunInputs in) {
    LogIngest ingest = ingest(in);
    double peak =
        switch (ingest.mode()) {
          case RATE -> ingest.rate();
          case STEPS -> ingest.steps().stream().mapToDouble(Double::doubleValue).max().orElse(0);
          case STAGES ->
              ingest.stages().stream().mapToDouble(s -> Math.max(s.from(), s.to())).max().orElse(0);
          default -> 0;
        };
    return peak / in.injectorShare().count();
  }
}
