package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.SearchResult;
import io.fusillade.logs.SeqDbQuery;
import java.util.List;

/**
 * A read as configured: the value a {@link LogsSearchBuilder} or {@link LogsSeqQlBuilder} wraps. It
 * has a query DSL body for an Elasticsearch API, a seq-db read, or both (a built-in scenario): the
 * protocol's store decides which is sent. Each {@code with...} returns a changed copy.
 *
 * @param body the query DSL body per request (from the session, or drawn from a template), or null
 *     when the read has no Elasticsearch form
 * @param seqDb the seq-db read per request, or null when it has no seq-db form
 * @param index another index than the protocol's (Gatling EL), or null
 * @param checks what the answer must hold
 */
record LogsSearch(
    Expression<String> name,
    Expression<String> body,
    Expression<SeqDbQuery> seqDb,
    Expression<String> index,
    String queryString,
    List<Check<SearchResult, ?>> checks) {

  LogsSearch {
    checks = List.copyOf(checks);
  }

  /** No checks, the protocol's index, {@code request_cache=false&track_total_hits=false}. */
  static LogsSearch of(Expression<String> name, Expression<String> body) {
    return new LogsSearch(name, body, null, null, LogSearches.QUERY_STRING, List.of());
  }

  /** A read in seq-db's terms only. */
  static LogsSearch seqDb(Expression<String> name, Expression<SeqDbQuery> query) {
    return new LogsSearch(name, null, query, null, LogSearches.QUERY_STRING, List.of());
  }

  LogsSearch withSeqDb(Expression<SeqDbQuery> value) {
    return new LogsSearch(name, body, value, index, queryString, checks);
  }

  LogsSearch withIndex(Expression<String> value) {
    return new LogsSearch(name, body, seqDb, value, queryString, checks);
  }

  LogsSearch withQueryString(String value) {
    return new LogsSearch(name, body, seqDb, index, value, checks);
  }

  LogsSearch withChecks(List<? extends Check<SearchResult, ?>> more) {
    List<Check<SearchResult, ?>> all = new java.util.ArrayList<>(checks);
    all.addAll(more);
    return new LogsSearch(name, body, seqDb, index, queryString, all);
  }
}
