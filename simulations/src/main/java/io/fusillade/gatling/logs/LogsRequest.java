package io.fusillade.gatling.logs;

import io.fusillade.logs.LogSearches;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.SearchTemplate;

/** A named logs request waiting for what it does: a bulk or a search. */
public final class LogsRequest {
  private final String name;

  LogsRequest(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a logs request needs a name");
    }
    this.name = name;
  }

  /** A {@code _bulk} of the next {@code documents} documents of the protocol's data set. */
  public LogsBulkBuilder bulk(int documents) {
    return new LogsBulkBuilder(name, documents);
  }

  /** A search with a fixed query DSL body. */
  public LogsSearchBuilder search(String body) {
    return search(SearchTemplate.of(body));
  }

  /** A search whose body is drawn from a template with seeded parameters. */
  public LogsSearchBuilder search(SearchTemplate template) {
    return new LogsSearchBuilder(name, template, null, LogSearches.QUERY_STRING, 0, null, 0);
  }

  /** A search of a scenario, with its checks (the request keeps this request's name). */
  public LogsSearchBuilder search(SearchScenario scenario) {
    return new LogsSearchBuilder(
        name,
        scenario.template(),
        null,
        LogSearches.QUERY_STRING,
        scenario.minHits(),
        scenario.aggregation(),
        scenario.minBuckets());
  }
}
