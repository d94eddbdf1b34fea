package io.fusillade.logs;

import static io.fusillade.gatling.logs.LogsDsl.logs;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.logs.LogsProtocolBuilder;
import io.fusillade.scenarios.logs.LogsPhases;
import io.fusillade.scenarios.logs.LogsTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The read path: the seq-db benchmark's six searches ({@link LogSearches}), one after another, each
 * with its own concurrency (closed model: N users looping for 10 s, or a fixed number of
 * iterations), no writes meanwhile. Each is a request name in the run record, reported with avg,
 * p50, p95 and p99 by {@code fusillade summary}.
 *
 * <p>On an embedded OpenSearch (the default) it first ingests {@code -Dlogs.docs=100000} web
 * documents of seed {@code logs.seed}. With {@code -Dlogs.url=...} it searches an index that
 * already holds {@code logs.docs} documents of that seed (load it with {@link
 * LogIngestSimulation}). {@code -Dlogs.search.duration=10s} shortens the 10 s scenarios.
 */
public class LogSearchSimulation extends Simulation {
  {
    String index = SimulationProperties.string("logs.index", "web-logs");
    long seed = SimulationProperties.longValue("logs.seed", 1);
    long docs = SimulationProperties.longValue("logs.docs", 100_000);
    Duration duration =
        SimulationProperties.duration("logs.search.duration", Duration.ofSeconds(10));
    LogsTarget target = LogsTarget.resolve("logs.url", List.of());
    List<String> urls = target.urls();
    if (target.embedded()) {
      ingest(urls.get(0), index, seed, docs);
    }
    LogsProtocolBuilder store = logs.urls(urls.toArray(String[]::new)).index(index).seed(seed);
    FusilladeRun.parameters(
        Map.of("index", index, "seed", seed, "docs", docs, "duration", duration.toString()));

    List<SearchScenario> scenarios =
        LogSearches.web(new WebLogs(seed), docs, seed).stream()
            .map(s -> s.withDuration(duration))
            .toList();
    setUp(LogsPhases.searches(scenarios, store));
  }

  /** Loads the data set into the embedded node before the searches, outside the measurement. */
  private static void ingest(String url, String index, long seed, long docs) {
    try (LogsClient client = LogsClient.open(LogsClientOptions.of(url));
        BulkBodies bodies = new BulkBodies()) {
      client.createIndex(IndexSpec.preset(index, "web-logs"), true);
      WebLogs web = new WebLogs(seed);
      JsonBuffer body = new JsonBuffer(1 << 20);
      for (long first = 0; first < docs; first += 5_000) {
        int n = (int) Math.min(5_000, docs - first);
        body.reset();
        BulkBodies.append(web, first, n, body);
        BulkResult r = client.bulk(index, body, false, n).join();
        if (!r.ok()) {
          throw new IllegalStateException("could not load the search data set: " + r.reason());
        }
      }
      client.refresh(index);
    }
  }
}
