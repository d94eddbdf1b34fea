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
import java.util.function.Consumer;

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

  private LogsProtocolBuilder change(Consumer<Draft> edit) {
    Draft draft = new Draft(s);
    edit.accept(draft);
    return new LogsProtocolBuilder(draft.settings());
  }

  /** A mutable copy of the settings, changed by one builder method and then frozen again. */
  private static final class Draft {
    List<String> urls;
    String user;
    String password;
    String apiKey;
    String index;
    LogProfile profile;
    LogSource source;
    long seed;
    boolean gzip;
    IndexSpec createIndex;
    boolean recreateIndex;
    SearchabilityProbe.Settings probe;
    Duration requestTimeout;
    long firstDocument;
    List<Double> stepRates;
    Duration stepDuration;

    Draft(LogsSettings s) {
      urls = s.urls();
      user = s.user();
      password = s.password();
      apiKey = s.apiKey();
      index = s.index();
      profile = s.profile();
      source = s.source();
      seed = s.seed();
      gzip = s.gzip();
      createIndex = s.createIndex();
      recreateIndex = s.recreateIndex();
      probe = s.probe();
      requestTimeout = s.requestTimeout();
      firstDocument = s.firstDocument();
      stepRates = s.stepRates();
      stepDuration = s.stepDuration();
    }

    LogsSettings settings() {
      return new LogsSettings(
          urls,
          user,
          password,
          apiKey,
          index,
          profile,
          source,
          seed,
          gzip,
          createIndex,
          recreateIndex,
          probe,
          requestTimeout,
          firstDocument,
          stepRates,
          stepDuration);
    }
  }

  /** The nodes' base URLs ({@code http://host:9200}); requests go to them in turn. */
  public LogsProtocolBuilder urls(String... urls) {
    FusilladeRun.noteSimulation();
    return change(d -> d.urls = List.of(urls));
  }

  /** Basic authentication; the password is never logged or written to a report. */
  public LogsProtocolBuilder basicAuth(String user, String password) {
    return change(
        d -> {
          d.user = user;
          d.password = password;
          d.apiKey = null;
        });
  }

  /** An API key ({@code Authorization: ApiKey <key>}); never logged. */
  public LogsProtocolBuilder apiKey(String key) {
    return change(
        d -> {
          d.user = null;
          d.password = null;
          d.apiKey = key;
        });
  }

  /** The index bulks and searches go to (default {@code logs}). */
  public LogsProtocolBuilder index(String index) {
    return change(d -> d.index = index);
  }

  /** A built-in data profile (default {@link LogProfile#WEB}). */
  public LogsProtocolBuilder profile(LogProfile profile) {
    return change(
        d -> {
          d.profile = profile;
          d.source = null;
        });
  }

  /** Your own documents instead of a built-in profile. */
  public LogsProtocolBuilder source(LogSource source) {
    return change(d -> d.source = source);
  }

  /** The data set's seed (default 1): the same seed gives the same documents. */
  public LogsProtocolBuilder seed(long seed) {
    return change(d -> d.seed = seed);
  }

  /** Whether bulk bodies are gzipped ({@code Content-Encoding: gzip}); default off. */
  public LogsProtocolBuilder gzip(boolean gzip) {
    return change(d -> d.gzip = gzip);
  }

  /**
   * Creates the index before the load starts (left as it is if it exists). Its name replaces {@link
   * #index(String)}.
   */
  public LogsProtocolBuilder createIndex(IndexSpec spec) {
    return change(
        d -> {
          d.index = spec.name();
          d.createIndex = spec;
          d.recreateIndex = false;
        });
  }

  /** Deletes the index first, then creates it: every run starts empty. */
  public LogsProtocolBuilder recreateIndex(IndexSpec spec) {
    return change(
        d -> {
          d.index = spec.name();
          d.createIndex = spec;
          d.recreateIndex = true;
        });
  }

  /** Runs the time-to-searchable probe beside the load with the default settings. */
  public LogsProtocolBuilder timeToSearchable() {
    return timeToSearchable(SearchabilityProbe.Settings.DEFAULT);
  }

  /** Runs the time-to-searchable probe beside the load. */
  public LogsProtocolBuilder timeToSearchable(SearchabilityProbe.Settings settings) {
    return change(d -> d.probe = settings);
  }

  /** How long one request may take before it is KO (default 60 s). */
  public LogsProtocolBuilder requestTimeout(Duration timeout) {
    return change(d -> d.requestTimeout = timeout);
  }

  /**
   * The index of the first document to send (default 0): to append to a data set already loaded by
   * an earlier run with the same seed.
   */
  public LogsProtocolBuilder firstDocument(long index) {
    return change(d -> d.firstDocument = index);
  }

  /**
   * Writes documents/s and MiB/s of each injection step to {@code run.json} (parameter {@code
   * steps}), for a load injected as {@code rates.size()} steps of {@code step} each.
   */
  public LogsProtocolBuilder stepReport(java.util.List<Double> rates, Duration step) {
    return change(
        d -> {
          d.stepRates = List.copyOf(rates);
          d.stepDuration = step;
        });
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
