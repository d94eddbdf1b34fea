package io.fusillade.gatling.logs;

import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.SearchabilityProbe;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.List;

/**
 * Configures the logs protocol: where the log store is, the index, the data, gzip, index creation
 * and the time-to-searchable probe. Immutable, in Gatling's style: it wraps one settings value and
 * every method returns a new builder around a changed copy.
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
  private final LogsSettings settings;

  LogsProtocolBuilder(LogsSettings settings) {
    this.settings = settings;
  }

  /** What this builder holds (for tests). */
  LogsSettings settings() {
    return settings;
  }

  /**
   * The nodes' base URLs ({@code http://host:9200}); requests go to them in turn.
   *
   * <p>Example: {@code logs.urls("http://10.0.0.1:9200", "http://10.0.0.2:9200")}.
   */
  public LogsProtocolBuilder urls(String... urls) {
    return new LogsProtocolBuilder(settings.withTarget(t -> t.withUrls(List.of(urls))));
  }

  /**
   * What kind of store the URLs are (default {@link LogStore#OPENSEARCH}: any Elasticsearch API).
   * With {@link LogStore#SEQ_DB}, bulks go to {@code /_bulk}, reads are {@link LogsRequest#seqql
   * seqql(...)}, and there is no index to create: seq-db's mapping is the file it was started with.
   *
   * <p>Example: {@code logs.urls("http://127.0.0.1:9002").store(LogStore.SEQ_DB)}.
   */
  public LogsProtocolBuilder store(LogStore store) {
    return new LogsProtocolBuilder(settings.withTarget(t -> t.withStore(store)));
  }

  /**
   * Basic authentication; the password is never logged or written to a report.
   *
   * <p>Example: {@code logs.urls(url).basicAuth("ingest", System.getenv("ES_PASSWORD"))}.
   */
  public LogsProtocolBuilder basicAuth(String user, String password) {
    return new LogsProtocolBuilder(settings.withTarget(t -> t.withBasicAuth(user, password)));
  }

  /**
   * An API key ({@code Authorization: ApiKey <key>}); never logged.
   *
   * <p>Example: {@code logs.urls(url).apiKey(System.getenv("ES_API_KEY"))}.
   */
  public LogsProtocolBuilder apiKey(String key) {
    return new LogsProtocolBuilder(settings.withTarget(t -> t.withApiKey(key)));
  }

  /**
   * How long one request may take before it is KO (default 60 s).
   *
   * <p>Example: {@code logs.urls(url).requestTimeout(Duration.ofSeconds(30))}.
   */
  public LogsProtocolBuilder requestTimeout(Duration timeout) {
    return new LogsProtocolBuilder(settings.withTarget(t -> t.withRequestTimeout(timeout)));
  }

  /**
   * The index bulks and searches go to (default {@code logs}).
   *
   * <p>Example: {@code logs.urls(url).index("web-logs")}.
   */
  public LogsProtocolBuilder index(String index) {
    return new LogsProtocolBuilder(settings.withIndex(settings.index().withName(index)));
  }

  /**
   * A built-in data profile (default {@link LogProfile#WEB}).
   *
   * <p>Example: {@code logs.urls(url).profile(LogProfile.K8S)}.
   */
  public LogsProtocolBuilder profile(LogProfile profile) {
    return new LogsProtocolBuilder(settings.withData(d -> d.withProfile(profile)));
  }

  /**
   * Your own documents instead of a built-in profile.
   *
   * <p>Example: {@code logs.urls(url).source(NdjsonFiles.open("logs/*.ndjson"))}.
   */
  public LogsProtocolBuilder source(LogSource source) {
    return new LogsProtocolBuilder(settings.withData(d -> d.withSource(source)));
  }

  /**
   * The data set's seed (default 1): the same seed gives the same documents.
   *
   * <p>Example: {@code logs.urls(url).seed(42)}.
   */
  public LogsProtocolBuilder seed(long seed) {
    return new LogsProtocolBuilder(settings.withData(d -> d.withSeed(seed)));
  }

  /**
   * The index of the first document to send (default 0): to append to a data set already loaded by
   * an earlier run with the same seed.
   *
   * <p>Example: {@code logs.urls(url).seed(42).firstDocument(1_000_000)}.
   */
  public LogsProtocolBuilder firstDocument(long index) {
    return new LogsProtocolBuilder(settings.withData(d -> d.withFirstDocument(index)));
  }

  /**
   * Whether bulk bodies are gzipped ({@code Content-Encoding: gzip}); default off.
   *
   * <p>Example: {@code logs.urls(url).gzip(true)}.
   */
  public LogsProtocolBuilder gzip(boolean gzip) {
    return new LogsProtocolBuilder(settings.withGzip(gzip));
  }

  /**
   * Creates the index before the load starts (left as it is if it exists). Its name replaces {@link
   * #index(String)}.
   *
   * <p>Example: {@code logs.urls(url).createIndex(IndexSpec.preset("web-logs", "web-logs"))}.
   */
  public LogsProtocolBuilder createIndex(IndexSpec spec) {
    return new LogsProtocolBuilder(settings.withIndex(LogsIndex.created(spec, false)));
  }

  /**
   * Deletes the index first, then creates it: every run starts empty.
   *
   * <p>Example: {@code logs.urls(url).recreateIndex(IndexSpec.preset("web-logs",
   * "web-logs").withShards(6))}.
   */
  public LogsProtocolBuilder recreateIndex(IndexSpec spec) {
    return new LogsProtocolBuilder(settings.withIndex(LogsIndex.created(spec, true)));
  }

  /**
   * Runs the time-to-searchable probe beside the load with the default settings.
   *
   * <p>Example: {@code logs.urls(url).timeToSearchable()}.
   */
  public LogsProtocolBuilder timeToSearchable() {
    return timeToSearchable(SearchabilityProbe.Settings.DEFAULT);
  }

  /**
   * Runs the time-to-searchable probe beside the load.
   *
   * <p>Example: {@code logs.urls(url).timeToSearchable(SearchabilityProbe.Settings.DEFAULT)}.
   */
  public LogsProtocolBuilder timeToSearchable(SearchabilityProbe.Settings probe) {
    return new LogsProtocolBuilder(settings.withProbe(probe));
  }

  @Override
  public Protocol protocol() {
    return settings.protocol();
  }
}
