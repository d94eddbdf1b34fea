package io.fusillade.scenarios.logs;

import static io.fusillade.gatling.logs.LogsDsl.logs;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.ClockOffset;
import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.logs.LogsDsl;
import io.fusillade.gatling.logs.LogsProtocolBuilder;
import io.fusillade.limit.LimitSettings;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.LogsClient;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.NdjsonFiles;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Steps;
import io.fusillade.scenarios.InjectedChains;
import io.fusillade.scenarios.StageInjection;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.LogSearch;
import io.fusillade.workload.LogsSection;
import io.fusillade.workload.Workload;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code logs} section of a workload file, run without code ({@code fusillade run}): create the
 * index with the section's mapping preset, shards and replicas (deleting it first: every run starts
 * empty), ingest (exactly {@code docs} documents, or bulks at {@code rate}, in {@code steps} or in
 * {@code stages}), optionally with the time-to-searchable probe, then refresh the index and run the
 * {@code searches} one after another.
 *
 * <p>Settings ({@link RunSettings}): {@code -Dfusillade.workload=FILE}; {@code -Dfusillade.urls}
 * (comma-separated base URLs) replaces the section's {@code urls}; without either, an embedded
 * OpenSearch is started for the run. {@code -Dfusillade.seed} replaces the file's seed; {@code
 * -Dfusillade.rate} and {@code -Dfusillade.duration} replace the section's rate and duration (see
 * {@link LogsPlan}).
 *
 * <p>{@code files:} (or {@code -Dfusillade.logs.files}, {@code fusillade run --files}) replays
 * NDJSON files from disk instead of the profile's generated documents ({@link NdjsonFiles}).
 *
 * <p>Under {@code fusillade limit} ({@link WorkloadProperties#searching()}), the bulks' maximum
 * sustainable rate is searched instead ({@link FusilladeLimit}), and no search follows.
 *
 * <p>The searches are parameterised for the documents the ingest planned to store (the exact count,
 * or arrivals x bulk size): the time range of {@code range pages} lies within them.
 */
public class LogsRun extends Simulation {
  /** The system property of NDJSON files to replay ({@code fusillade run --files}). */
  public static final String FILES_PROPERTY = PlanProperties.LOGS_FILES;

  /** The request name of the ingest's {@code _bulk} requests. */
  public static final String BULK = "bulk";

  {
    RunSettings given = RunPlan.current().settings();
    Workload workload = WorkloadProperties.workload(given);
    LogsSection fileSection =
        workload
            .logs()
            .orElseThrow(
                () ->
                    new FusilladeException(
                        workload.file() + ": no logs section (fusillade run runs its queries)"));
    // fusillade run --target: the same section on another kind of store
    String targetGiven = RunPlan.current().logs().target();
    LogsSection section =
        targetGiven != null && !targetGiven.isBlank()
            ? fileSection.withTarget(targetGiven)
            : fileSection;
    long seed = WorkloadProperties.seed(given, workload);
    LogIngest ingest = LogsPlan.ingest(section, given.rate(), given.duration());
    RunSettings recorded =
        RunSettings.NONE.withWorkload(given.workload()).withSeed(seed).withMode(Mode.LOGS);
    WorkloadProperties.declareChecks(given, workload);
    LogStore storeKind = LogsWorkloadMapping.store(section);
    LogsTarget target =
        LogsTarget.resolve(
            given.urls(), section.urls(), storeKind, LogsWorkloadMapping.indexSpec(section));
    // One of several injectors: its part of the rate (the logs protocol sends its every N-th bulk).
    InjectorShare share = InjectorShare.current();

    LogsProtocolBuilder store =
        logs.urls(target.urlArray())
            .store(storeKind)
            .profile(LogsWorkloadMapping.profile(section))
            .seed(seed);
    // Pre-transformed NDJSON on disk instead of the profile's generator (--files, files:).
    String files =
        RunPlan.current().logs().files() != null
            ? RunPlan.current().logs().files()
            : section.files();
    if (files != null && !files.isBlank()) {
      NdjsonFiles replay = FusilladeRun.closeAtEnd(NdjsonFiles.open(files));
      store = store.source(replay);
      FusilladeRun.parameters(Map.of("files", files, "fileDocuments", replay.documents()));
    }
    if (section.user() != null) {
      store = store.basicAuth(section.user(), section.password());
    } else if (section.apiKey() != null) {
      store = store.apiKey(section.apiKey());
    }
    // The searches' protocol: the same store and data, without index creation or probe.
    LogsProtocolBuilder searchStore = store.index(section.index());
    IndexSpec index = LogsWorkloadMapping.indexSpec(section);
    store = store.gzip(section.gzip());
    if (share.alone()) {
      store = store.recreateIndex(index);
    } else {
      // One index for the test: the first injector makes it now, before the common start (its
      // protocol would make it after), and no injector deletes it again.
      store = store.index(section.index());
      if (share.index() == 0) {
        LogsPhases.client(LogsWorkloadMapping.clientOptions(section, target.urls()))
            .createIndex(index, true);
      }
    }
    if (section.timeToSearchable()) {
      store = store.timeToSearchable();
    }

    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("store", section.target());
    parameters.put("index", section.index());
    parameters.put("profile", section.profile());
    parameters.put("mapping", section.mapping());
    parameters.put("shards", section.shards());
    parameters.put("replicas", section.replicas());
    parameters.put("bulk", section.bulkSize());
    parameters.put("gzip", section.gzip());
    if (WorkloadProperties.searching()) {
      // fusillade limit: the bulks' maximum sustainable rate, searched; no searches after it.
      LimitSettings limit = WorkloadProperties.limit(workload);
      parameters.put("bulk", section.bulkSize());
      FusilladeRun.settings(recorded);
      FusilladeRun.parameters(parameters);
      setUp(
          FusilladeLimit.search(limit)
              .population("ingest", exec(logs(BULK).bulk(section.bulkSize())))
              .protocols(store));
    } else {
      InjectedChains injected =
          InjectedChains.of(
              workload.injected(), seed, kind -> LogsDsl.injected(kind).forIndex(index), share);
      PopulationBuilder chain;
      switch (ingest.mode()) {
        case DOCS -> {
          long docs = docsOf(ingest.docs(), section.bulkSize(), share);
          parameters.put("docs", docs);
          parameters.put("concurrency", section.concurrency());
          chain =
              LogsPhases.exactDocuments(
                  "ingest", BULK, section.bulkSize(), docs, section.concurrency(), injected);
        }
        case RATE -> {
          double mine = share.rate(ingest.rate());
          recorded = recorded.withRate(mine).withDuration(ingest.duration());
          FusilladeRun.injectionSteps(List.of(mine), ingest.duration());
          chain =
              LogsPhases.arrivals(
                  "ingest",
                  BULK,
                  section.bulkSize(),
                  LogsPhases.steps(List.of(mine), ingest.duration()),
                  injected);
        }
        case STAGES -> {
          // Ramps have no constant level to judge, so no step report: run.json has the stages.
          recorded = recorded.withStages(ingest.stages());
          List<RunSettings.Stage> mine =
              ingest.stages().stream()
                  .map(
                      st ->
                          new RunSettings.Stage(
                              share.rate(st.from()), share.rate(st.to()), st.duration()))
                  .toList();
          chain =
              LogsPhases.arrivals(
                  "ingest", BULK, section.bulkSize(), StageInjection.of(mine), injected);
        }
        default -> {
          List<Double> mine = ingest.steps().stream().map(share::rate).toList();
          recorded = recorded.withSteps(new Steps(mine, ingest.stepDuration()));
          FusilladeRun.injectionSteps(mine, ingest.stepDuration());
          chain =
              LogsPhases.arrivals(
                  "ingest",
                  BULK,
                  section.bulkSize(),
                  LogsPhases.steps(mine, ingest.stepDuration()),
                  injected);
        }
      }
      chain = chain.protocols(store);
      // The injected kinds at a rate of their own, beside the ingest (their length: the ingest's).
      // Their protocol is the searches': a population with its own gets its own components, and
      // the ingest's would create the index again.
      List<PopulationBuilder> besides = new ArrayList<>();
      for (PopulationBuilder p : injected.populations(workload.file(), ingest.length())) {
        besides.add(p.protocols(searchStore));
      }

      // Of several injectors, the first one searches what they all wrote.
      if (!section.searches().isEmpty() && share.index() == 0) {
        long documents = ingest.plannedBulks(section.bulkSize()) * section.bulkSize();
        List<ReadPlan> reads = LogReads.plans(section, documents, seed);
        parameters.put("searches", section.searches().stream().map(LogSearch::name).toList());
        chain =
            chain
                .andThen(
                    LogsPhases.refresh(
                        "refresh",
                        LogsPhases.client(
                            LogsWorkloadMapping.clientOptions(section, target.urls())),
                        section.index()))
                .andThen(LogsPhases.reads(reads, searchStore));
      }
      FusilladeRun.settings(recorded);
      FusilladeRun.parameters(parameters);
      WorkloadProperties.awaitCommonStart(share, clockOffset(section, target, share));
      besides.add(0, chain);
      setUp(besides);
    }
  }

  /**
   * This injector's clock offset to the first node's ({@link LogsClient#nodeTimeMillis}), when it
   * is one of several or waits for a common start: the store is the clock they share. Its
   * timestamps are whole milliseconds, so the offset is taken from the middle of the millisecond
   * and is half a millisecond less sure. Nothing for an embedded node, which only a lone injector
   * starts, or a store that does not say its time (the run goes on, on this clock).
   */
  static ClockOffset clockOffset(LogsSection section, LogsTarget target, InjectorShare share) {
    if ((share.alone() && share.startAt() == null) || target.embedded()) {
      return null;
    }
    String reference = LogsClientOptions.mask(target.urls().get(0));
    try (LogsClient client =
        LogsPhases.client(LogsWorkloadMapping.clientOptions(section, target.urls()))) {
      ClockOffset measured =
          ClockOffset.measure(() -> client.nodeTimeMillis() * 1000 + 500, reference);
      return new ClockOffset(
          measured.offsetMicros(), measured.uncertaintyMicros() + 500, measured.reference());
    } catch (Exception e) {
      System.out.println(
          "Fusillade: cannot read the clock of "
              + reference
              + " ("
              + e.getMessage()
              + "): this injector's clock offset is not measured; --start-at is read on its own"
              + " clock");
      return null;
    }
  }

  /**
   * This injector's documents of an exact number: of the single run's bulks, every N-th from its
   * index.
   */
  static long docsOf(long docs, int bulkSize, InjectorShare share) {
    long bulks = docs / bulkSize;
    long mine = bulks > share.index() ? (bulks - 1 - share.index()) / share.count() + 1 : 0;
    if (mine == 0) {
      throw new FusilladeException(
          "injector "
              + share.index()
              + " of "
              + share.count()
              + " has no bulk of the "
              + bulks
              + ": give at least as many bulks (docs / bulk_size) as injectors");
    }
    return mine * bulkSize;
  }
}
