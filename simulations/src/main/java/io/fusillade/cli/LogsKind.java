package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.local.SeqDbBinary;
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
import io.fusillade.workload.LogsNames;
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
    SqlLoadOptions.refuseAdaptive(in, label());
    refuse(in.sqlLoad(), in, "SQL workloads");
    if (in.target().user != null) {
      throw new FusilladeException(
          "--user applies to SQL workloads; a log store's credentials go in the logs section"
              + " (user:, password: or api_key:)");
    }
  }

  /** The section on the store {@code --target} names, else on its own. */
  private static LogsSection section(RunInputs in) {
    LogsSection section = in.workload().logs().orElseThrow();
    String target = in.logs() == null ? null : in.logs().target;
    return target == null ? section : section.withTarget(LogsNames.target(target).orElseThrow());
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
    checkStore(in);
    ingest(in); // an option that does not apply to this section's ingest is refused here
    return RunSettings.NONE
        .withMode(Mode.LOGS)
        .withWorkload(in.file())
        .withRate(in.rate() == null ? null : in.rate().rate)
        .withDuration(in.rate() == null ? null : in.rate().duration())
        .withSeed(in.seed())
        .withUrls(in.target().urls);
  }

  /**
   * Before the fork, what a section needs of its store: each search of the file's own in that
   * store's terms, and for an embedded seq-db its binary (one line on how to build it, when there
   * is none).
   */
  private static void checkStore(RunInputs in) {
    LogsSection logs = section(in);
    if (logs.seqDb() && !in.workload().injected().isEmpty()) {
      // seq-db checks no field's type and ignores the action lines: neither bulk fails there
      throw new FusilladeException(
          in.file()
              + ": injected bulks ("
              + in.workload().injected().get(0).kind()
              + ") fail on Elasticsearch's checks, which seq-db does not make: remove injected,"
              + " or run on opensearch");
    }
    for (LogSearch search : logs.searches()) {
      String missing = LogsNames.missingForm(search, logs.target());
      if (missing != null) {
        throw new FusilladeException(in.file() + ": " + missing);
      }
    }
    String binary = in.logs().seqdbBinary;
    if (binary != null && !(logs.seqDb() && urls(in).isEmpty())) {
      throw new FusilladeException(
          "--seqdb-binary starts an embedded seq-db: this run's store is "
              + (logs.seqDb() ? "given by --url or the workload's urls" : logs.target()));
    }
  }

  /** The binary an embedded seq-db starts from, found before the fork; null for none needed. */
  private static String seqDbBinary(RunInputs in) {
    if (!section(in).seqDb() || !urls(in).isEmpty()) {
      return null;
    }
    try {
      return SeqDbBinary.require(in.logs().seqdbBinary).toString();
    } catch (IllegalStateException e) {
      throw new FusilladeException(e.getMessage());
    }
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
    Integer nodes = in.logs().nodes;
    if (section(in).seqDb()) {
      // the single node, or the ingestor and its stores
      return Map.of(LocalFaults.SEQ_DB, nodes != null && nodes > 1 ? nodes + 1 : 1);
    }
    return Map.of(LocalFaults.OPENSEARCH, nodes != null ? nodes : 1);
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
            logs.files != null ? logs.files : plan.logs().files(),
            logs.target != null
                ? LogsNames.target(logs.target).orElseThrow()
                : plan.logs().target(),
            seqDbBinary(in),
            plan.logs().serversApart()));
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
