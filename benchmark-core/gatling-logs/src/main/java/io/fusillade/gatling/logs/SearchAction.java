package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.SearchResult;
import io.fusillade.logs.SeqDbQuery;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.concurrent.CompletableFuture;

/**
 * Sends one read without blocking Gatling's event loop, in the protocol's store's terms: the query
 * DSL body to {@code _search}, or the seq-db read to its own API. OK when the store answered
 * without error (unless a check reads it) and its checks pass; what they save goes to the session.
 *
 * <p>A read without a form for the protocol's store (a query DSL body on seq-db, a seq-ql read on
 * OpenSearch) is refused when the simulation starts, not sent to fail at every request.
 */
final class SearchAction extends FusilladeAction<SearchAction.Read> {
  private final LogsSearch search;
  private final boolean seqDb;
  private final Expression<String> index;
  private final LogsComponents components;
  private final Checks<SearchResult> checks;
  private final boolean readsError;

  SearchAction(LogsSearch search, LogsComponents components, Action next) {
    super(search.name(), components, next);
    this.search = search;
    this.seqDb = components.client().options().store() == LogStore.SEQ_DB;
    this.index =
        search.index() != null
            ? search.index()
            : Expression.constant(components.settings().indexName());
    this.components = components;
    this.checks = Checks.<SearchResult>none().and(search.checks());
    this.readsError = readsError(checks);
    if (seqDb && search.seqDb() == null) {
      throw new IllegalStateException(
          "logs(\""
              + search.name()
              + "\"): a query DSL search, and the store is seq-db, which has no _search: write it"
              + " with seqql(...)");
    }
    if (!seqDb && search.body() == null) {
      throw new IllegalStateException(
          "logs(\""
              + search.name()
              + "\"): a seq-ql read, and the store is "
              + components.client().options().store().label()
              + ": write it with search(...) in the query DSL, or set .store(LogStore.SEQ_DB)");
    }
  }

  /**
   * Why a read is KO, or null: the store's own error first (unless a check reads it), then the
   * first check that fails.
   */
  static String verdict(
      Checks<SearchResult> checks,
      boolean readsError,
      SearchResult result,
      Session session,
      Saves saves) {
    if (!result.ok() && !readsError) {
      return result.error();
    }
    return checks.verify(result, session, saves);
  }

  /** Whether a read's checks judge its error themselves ({@link LogsDsl#errorCode()}). */
  static boolean readsError(Checks<SearchResult> checks) {
    return checks.needs().contains(LogsChecks.ERROR);
  }

  /** A read for one session: the seq-db read, or the index and the query body. */
  record Read(SeqDbQuery seqDb, String index, String body) {}

  /** The query body and index, or the seq-db read, for this session. */
  @Override
  protected Read resolve(Session session, String name) {
    return seqDb
        ? new Read(search.seqDb().resolve(session), null, null)
        : new Read(null, index.resolve(session), search.body().resolve(session));
  }

  @Override
  protected void send(Exchange exchange, Read read) {
    CompletableFuture<SearchResult> answer =
        seqDb
            ? components.client().seqDb(read.seqDb())
            : components.client().search(read.index(), read.body(), search.queryString());
    answer.whenComplete(
        (result, failure) -> {
          if (result == null) {
            exchange.end(System.nanoTime(), Status.KO, String.valueOf(failure));
            return;
          }
          Saves saves = new Saves();
          String reason = verdict(checks, readsError, result, exchange.session(), saves);
          exchange.end(
              result.endNanos(),
              reason == null ? Status.OK : Status.KO,
              reason,
              reason == null ? saves.applyTo(exchange.session()) : exchange.session());
        });
  }
}
