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
final class SearchAction extends FusilladeAction {
  private final Expression<String> name;
  private final Expression<String> body;
  private final String index;
  private final String queryString;
  private final int minHits;
  private final String aggregation;
  private final int minBuckets;
  private final LogsComponents components;

  SearchAction(LogsSearch search, LogsComponents components, Action next) {
    super(search.name().toString(), components, next);
    this.name = search.name();
    this.body = search.body();
    this.index = search.index() != null ? search.index() : components.settings().index();
    this.queryString = search.queryString();
    this.minHits = search.minHits();
    this.aggregation = search.aggregation();
    this.minBuckets = search.minBuckets();
    this.components = components;
  }

  @Override
  public void execute(Session session) {
    long entered = System.nanoTime();
    String requestName = requestName(session, name, entered);
    if (requestName == null) {
      return;
    }
    String request;
    try {
      request = body.resolve(session);
    } catch (IllegalArgumentException e) {
      notBuilt(session, requestName, entered, e.getMessage());
      return;
    }
    Exchange exchange = start(session, requestName, entered);
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
