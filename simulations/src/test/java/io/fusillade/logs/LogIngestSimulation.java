package io.fusillade.logs;

import static io.fusillade.gatling.logs.LogsDsl.logs;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.logs.LogsProtocolBuilder;
import io.fusillade.scenarios.logs.LogsPhases;
import io.fusillade.scenarios.logs.LogsTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The write path: bulks of generated log documents into one index.
 *
 * <p>Two modes. With {@code -Dlogs.docs=N}: exactly N documents, sent by {@code logs.concurrency}
 * users (default 2) each sending bulks back to back, as fast as the store takes them (N must be a
 * multiple of bulk size x concurrency). Otherwise: bulks at a constant arrival rate, {@code
 * -Dlogs.rate=2} bulks/s for {@code -Dlogs.duration=30s}, or rising steps {@code
 * -Dlogs.rates=2,4,8} of {@code -Dlogs.stepDuration=10s} each, with documents/s and MiB/s per step
 * in {@code run.json} ({@code steps}).
 *
 * <p>Other settings: {@code logs.url} (default: an embedded OpenSearch), {@code logs.index}
 * (web-logs), {@code logs.profile} (web|k8s), {@code logs.seed} (1), {@code logs.bulk} (5000),
 * {@code logs.gzip} (false), {@code logs.shards} (1), {@code logs.tts} (false: the
 * time-to-searchable probe), {@code logs.user}/{@code LOGS_PASSWORD} env, {@code LOGS_API_KEY} env.
 */
public class LogIngestSimulation extends Simulation {
  {
    String index = SimulationProperties.string("logs.index", "web-logs");
    LogProfile profile =
        LogProfile.parse(SimulationProperties.string("logs.profile", "web"))
            .orElseThrow(() -> new FusilladeException("logs.profile must be web or k8s"));
    long seed = SimulationProperties.longValue("logs.seed", 1);
    int bulk = SimulationProperties.integer("logs.bulk", 5_000);
    long docs = SimulationProperties.longValue("logs.docs", 0);
    int concurrency = SimulationProperties.integer("logs.concurrency", 2);
    boolean gzip = Boolean.parseBoolean(SimulationProperties.string("logs.gzip", "false"));
    String rates = SimulationProperties.string("logs.rates", "");
    Duration step = SimulationProperties.duration("logs.stepDuration", Duration.ofSeconds(10));

    LogsProtocolBuilder store =
        logs.urls(LogsTarget.resolve("logs.url", List.of()).urlArray())
            .profile(profile)
            .seed(seed)
            .gzip(gzip)
            .recreateIndex(
                IndexSpec.forProfile(index, profile)
                    .withShards(
                        SimulationProperties.integer(
                            "logs.shards", profile == LogProfile.K8S ? 6 : 1)));
    String user = SimulationProperties.string("logs.user", "");
    if (!user.isEmpty()) {
      store = store.basicAuth(user, System.getenv("LOGS_PASSWORD"));
    } else if (System.getenv("LOGS_API_KEY") != null) {
      store = store.apiKey(System.getenv("LOGS_API_KEY"));
    }
    if (Boolean.parseBoolean(SimulationProperties.string("logs.tts", "false"))) {
      store = store.timeToSearchable();
    }

    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("index", index);
    parameters.put("profile", profile.label());
    parameters.put("seed", seed);
    parameters.put("bulk", bulk);
    parameters.put("gzip", gzip);
    if (docs > 0) {
      if (docs % ((long) bulk * concurrency) != 0) {
        throw new FusilladeException(
            "logs.docs="
                + docs
                + " must be a multiple of logs.bulk x logs.concurrency = "
                + (long) bulk * concurrency);
      }
      parameters.put("docs", docs);
      parameters.put("concurrency", concurrency);
      FusilladeRun.parameters(parameters);
      setUp(LogsPhases.exactDocuments("ingest", "bulk", bulk, docs, concurrency).protocols(store));
    } else {
      List<Double> steps = new ArrayList<>();
      if (!rates.isEmpty()) {
        for (String r : rates.split(",")) {
          steps.add(Double.parseDouble(r.strip()));
        }
      } else {
        double rate = Double.parseDouble(SimulationProperties.string("logs.rate", "2"));
        step = SimulationProperties.duration("logs.duration", Duration.ofSeconds(30));
        steps.add(rate);
      }
      FusilladeRun.injectionSteps(steps, step);
      FusilladeRun.parameters(parameters);
      setUp(LogsPhases.arrivals("ingest", "bulk", bulk, steps, step).protocols(store));
    }
  }
}
