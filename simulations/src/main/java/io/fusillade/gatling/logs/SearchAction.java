package io.fusillade.gatling.logs;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.ResponseReporter;
import io.fusillade.logs.SearchResult;
import io.fusillade.logs.SearchTemplate;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;

/**
 * Sends one search without blocking Gatling's event loop; OK when the server answered and the
 * checks (fewest hits, fewest buckets of an aggregation) pass.
 */
final class SearchAction extends FusilladeAction {
  private final SearchTemplate template;
  private final String index;
  private final String queryString;
  private final int minHits;
  private final String aggregation;
  private final int minBuckets;
  private final LogsComponents components;
  private final ResponseReporter reporter;
  private final Action next;

  SearchAction(String name, LogsSearchBuilder b, LogsComponents components, Action next) {
    super(name);
    this.template = b.template();
    this.index = b.index() != null ? b.index() : components.settings().index();
    this.queryString = b.queryString();
    this.minHits = b.minHits();
    this.aggregation = b.aggregation();
    this.minBuckets = b.minBuckets();
    this.components = components;
    this.reporter = new ResponseReporter(components.core(), components.recorder().request(name));
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    ResponseReporter.Start start = reporter.start();
    String body = template.next();
    components
        .client()
        .search(index, body, queryString)
        .whenComplete(
            (result, failure) -> {
              String reason = result == null ? String.valueOf(failure) : check(result);
              Status status = reason == null ? Status.OK : Status.KO;
              long end = result != null ? result.endNanos() : System.nanoTime();
              reporter.report(session, start, end, status, reason);
              next.$bang(status == Status.OK ? session : session.markAsFailed());
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
