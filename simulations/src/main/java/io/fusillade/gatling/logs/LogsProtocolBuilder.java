package io.fusillade.gatling.logs;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;
import io.fusillade.logs.SearchabilityProbe;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.List;

/**
 * Configures the logs protocol: where the log store is, the index, the data, gzip, index creation
 * and the time-to-searchable probe. Immutable: every method returns a new builder.
 *
 * <pre>{@code
 * LogsProtocolBuilder store = logs.urls("http://10.0.0.1:9200", "http://10.0.0.2:9200")
 *     .basicAuth("ingest", System.getenv("ES_PASSWORD"))
 *     .index("web-logs").profile(LogProfile.WEB).seed(42).gzip(true)
 *     .createIndex(IndexSpec.preset("web-logs", "web-logs").withShards(6))
 *     .timeToSearchable();
 * }</pre>
 */
public final class LogsProtocolBuilder implements ProtocolBuilder {
  private final LogsSettings s;

  LogsProtocolBuilder(LogsSettings settings) {
    this.s = settings;
  }

  private LogsProtocolBuilder with(LogsSettings settings) {
    return new LogsProtocolBuilder(settings);
  }

  /** The nodes' base URLs ({@code http://host:9200}); requests go to them in turn. */
  public LogsProtocolBuilder urls(String... urls) {
    FusilladeRun.noteSimulation();
    return with(
        new LogsSettings(
            List.of(urls),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** Basic authentication; the password is never logged or written to a report. */
  public LogsProtocolBuilder basicAuth(String user, String password) {
    return with(
        new LogsSettings(
            s.urls(),
            user,
            password,
            null,
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** An API key ({@code Authorization: ApiKey <key>}); never logged. */
  public LogsProtocolBuilder apiKey(String key) {
    return with(
        new LogsSettings(
            s.urls(),
            null,
            null,
            key,
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** The index bulks and searches go to (default {@code logs}). */
  public LogsProtocolBuilder index(String index) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            index,
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** A built-in data profile (default {@link LogProfile#WEB}). */
  public LogsProtocolBuilder profile(LogProfile profile) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            profile,
            null,
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** Your own documents instead of a built-in profile. */
  public LogsProtocolBuilder source(LogSource source) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            source,
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** The data set's seed (default 1): the same seed gives the same documents. */
  public LogsProtocolBuilder seed(long seed) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            seed,
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** Whether bulk bodies are gzipped ({@code Content-Encoding: gzip}); default off. */
  public LogsProtocolBuilder gzip(boolean gzip) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            gzip,
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /**
   * Creates the index before the load starts (left as it is if it exists). Its name replaces {@link
   * #index(String)}.
   */
  public LogsProtocolBuilder createIndex(IndexSpec spec) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            spec.name(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            spec,
            false,
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** Deletes the index first, then creates it: every run starts empty. */
  public LogsProtocolBuilder recreateIndex(IndexSpec spec) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            spec.name(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            spec,
            true,
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** Runs the time-to-searchable probe beside the load with the default settings. */
  public LogsProtocolBuilder timeToSearchable() {
    return timeToSearchable(SearchabilityProbe.Settings.DEFAULT);
  }

  /** Runs the time-to-searchable probe beside the load. */
  public LogsProtocolBuilder timeToSearchable(SearchabilityProbe.Settings settings) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            settings,
            s.requestTimeout(),
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /** How long one request may take before it is KO (default 60 s). */
  public LogsProtocolBuilder requestTimeout(Duration timeout) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            timeout,
            s.firstDocument(),
            s.stepRates(),
            s.stepDuration()));
  }

  /**
   * The index of the first document to send (default 0): to append to a data set already loaded by
   * an earlier run with the same seed.
   */
  public LogsProtocolBuilder firstDocument(long index) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            index,
            s.stepRates(),
            s.stepDuration()));
  }

  /**
   * Writes documents/s and MiB/s of each injection step to {@code run.json} (parameter {@code
   * steps}), for a load injected as {@code rates.size()} steps of {@code step} each.
   */
  public LogsProtocolBuilder stepReport(java.util.List<Double> rates, Duration step) {
    return with(
        new LogsSettings(
            s.urls(),
            s.user(),
            s.password(),
            s.apiKey(),
            s.index(),
            s.profile(),
            s.source(),
            s.seed(),
            s.gzip(),
            s.createIndex(),
            s.recreateIndex(),
            s.probe(),
            s.requestTimeout(),
            s.firstDocument(),
            List.copyOf(rates),
            step));
  }

  @Override
  public Protocol protocol() {
    if (s.urls().isEmpty()) {
      throw new IllegalStateException(
          "The logs protocol needs at least one URL: logs.urls(\"http://host:9200\")");
    }
    s.clientOptions(); // validates the URLs and credentials now, with a clear message
    return new LogsProtocol(s);
  }
}
