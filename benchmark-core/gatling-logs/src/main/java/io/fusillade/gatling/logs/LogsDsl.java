package io.fusillade.gatling.logs;

import io.fusillade.gatling.RequestNames;
import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/**
 * The entry point of Fusillade's logs protocol (any Elasticsearch-compatible {@code _bulk} and
 * {@code _search} API: Elasticsearch, OpenSearch, seq-db), in the style of Gatling's {@code
 * HttpDsl}: {@code logs} configures the protocol, {@code logs("name")} starts a request.
 *
 * <pre>{@code
 * import static io.fusillade.gatling.logs.LogsDsl.*;
 *
 * LogsProtocolBuilder store = logs.urls("http://127.0.0.1:9200").index("web-logs").seed(42)
 *     .recreateIndex(IndexSpec.preset("web-logs", "web-logs")).timeToSearchable();
 * ScenarioBuilder ingest = scenario("ingest").exec(logs("bulk").bulk(5_000));
 * setUp(ingest.injectOpen(constantUsersPerSec(10).during(60))).protocols(store);
 * }</pre>
 */
public final class LogsDsl {
  /** The logs protocol with its defaults: index {@code logs}, web profile, seed 1, no gzip. */
  public static final LogsProtocolBuilder logs = new LogsProtocolBuilder(LogsSettings.DEFAULT);

  private LogsDsl() {}

  /**
   * Starts a logs request. {@code name} is the request's name in reports, a Gatling EL string or a
   * constant: keep it to a few distinct values.
   */
  public static LogsRequest logs(String name) {
    return new LogsRequest(RequestNames.of("logs", name));
  }

  /**
   * A bulk that fails on purpose ({@link LogsFaults}): named {@code injected <kind>}, left out of
   * the run's error and latency checks unless a check names it. Its body is made for the index the
   * protocol creates ({@link LogsProtocolBuilder#recreateIndex}), when the scenario starts, or the
   * one given to {@link LogsInjectedBuilder#forIndex}.
   *
   * @param kind one of {@link LogsFaults#KINDS}, e.g. {@link LogsFaults#MAPPING_VIOLATION}
   * @return the request
   * @throws IllegalArgumentException for an unknown kind
   */
  public static LogsInjectedBuilder injected(String kind) {
    return new LogsInjectedBuilder(kind, null);
  }

  /** Starts a logs request whose name is computed from the session (keep the names few). */
  public static LogsRequest logs(Function<Session, String> name) {
    return new LogsRequest(RequestNames.of("logs", name));
  }
}
