package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.logs.SearchResult;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;

/**
 * Sends one search without blocking Gatling's event loop; OK when the server answered and the
 * checks (fewest hits, fewest buckets of an aggregation) pass.
 */
final class SearchAction extends FusilladeAction<String> {
  private final Expression<String> body;
  private final String index;
  private final String queryString;
  private final int minHits;
  private final String aggregation;
  private final int minBuckets;
  private final LogsComponents components;

  SearchAction(LogsSearch search, LogsComponents components, Action next) {
    super(search.name(), components, next);
    this.body = search.body();
    this.index = search.index() != null ? search.index() : components.settings().indexName();
    this.queryString = search.queryString();
    this.minHits = search.minHits();
    this.aggregation = search.aggregation();
    this.minBuckets = search.minBuckets();
    this.components = components;
  }

  /** The query body for this session. */
  @Override
  protected String resolve(Session session, String name) {
    return body.resolve(session);
  }

  @Override
  protected void send(Exchange exchange, String request) {
    components
        .client()
        .search(index, request, queryString)
        .whenComplete(
            (result, failure) -> {
              String reason = result == null ? String.valueOf(failure) : check(result);
              long end = result != null ? result.endNanos() : System.nanoTime();
              exchange.end(end, reason == null ? Status.OK : Status.KO, reason);
            });
  }

  private String check(SearchResult r) {
    if (!r.ok()) {
      return r.error();
    }
    if (r.hits() < minHits) {
      return "fewer than " + minHits + " hits";
    }
    if (aggregation != null && r.buckets(aggregation).size() < minBuckets) {
      return "fewer than " + minBuckets + " buckets in " + aggregation;
    }
    return null;
  }
}
