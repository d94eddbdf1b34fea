package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.logs.SearchScenario;
import io.fusillade.logs.SearchTemplate;
import io.fusillade.logs.SeqDbQuery;
import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/** A named logs request waiting for what it does: a bulk, a search or a seq-db read. Immutable. */
public final class LogsRequest {
  private final Expression<String> name;

  LogsRequest(Expression<String> name) {
    this.name = name;
  }

  /**
   * A {@code _bulk} of the next {@code documents} documents of the protocol's data set.
   *
   * <p>Example: {@code logs("bulk").bulk(5_000)}.
   */
  public LogsBulkBuilder bulk(int documents) {
    return new LogsBulkBuilder(new LogsBulkBuilder.Bulk(name, documents));
  }

  /**
   * A search with a query DSL body, a Gatling EL template resolved per virtual user (a body without
   * {@code #{} is sent as it is).
   *
   * <p>Example: {@code logs("by user").search("{\"query\":{\"term\":{\"user\":\"#{user}\"}}}")}.
   *
   * <p>Example: {@code logs("expression").search(Expression.text("{\"query\":{\"term\":{\"ip\":\"#{ip}\"}}}"))}.
   */
  public LogsSearchBuilder search(String body) {
    return search(Expression.text(body));
  }

  /**
   * A search whose body is drawn from a template of the logs module with seeded parameters (the
   * built-in scenarios' time ranges and terms), whatever the session.
   *
   * <p>Example: {@code logs("range").search(SearchTemplate.of(body).param("from", rng ->
   * rng.nextLong(0, 49)))}.
   *
   * <p>Example: {@code logs("range").search(scenario)}.
   */
  public LogsSearchBuilder search(SearchTemplate template) {
    return search(template(template));
  }

  /**
   * A search whose body comes from the session: for instance {@code
   * Expression.text("{\"query\":{\"term\":{\"user\":\"#{user}\"}}}")}.
   */
  public LogsSearchBuilder search(Expression<String> body) {
    return new LogsSearchBuilder(LogsSearch.of(name, body));
  }

  /**
   * A search whose body is computed from the session.
   *
   * <p>Example: {@code logs("by user").search(session -> body(session.getString("user")))}.
   */
  public LogsSearchBuilder search(Function<Session, String> body) {
    return search(Expression.of(body));
  }

  /**
   * A search of a scenario, with its checks (the request keeps this request's name): its query DSL
   * body, or on seq-db its seq-db form.
   */
  public LogsSearchBuilder search(SearchScenario scenario) {
    LogsSearchBuilder search = search(scenario.template());
    if (scenario.seqDb() != null) {
      SearchScenario.SeqDbForm form = scenario.seqDb();
      search =
          search.with(
              search
                  .search()
                  .withSeqDb(
                      Expression.<SeqDbQuery>of(session -> form.next())
                          .describedAs(form.query().body())));
    }
    search = search.check(LogsDsl.hits().gte(scenario.minHits()));
    return scenario.aggregation() == null
        ? search
        : search.check(LogsDsl.buckets(scenario.aggregation()).gte(scenario.minBuckets()));
  }

  /**
   * A read in seq-db's own terms: a seq-ql query ({@code "status:500"}, {@code "*"} for every
   * document; Gatling EL), then its page, aggregations or histogram. The protocol's store must be
   * {@link io.fusillade.logs.LogStore#SEQ_DB}.
   *
   * <p>Example: {@code logs("errors").seqql("status:500").size(100).check(hits().gte(1))}.
   */
  public LogsSeqQlBuilder seqql(String query) {
    return new LogsSeqQlBuilder(name, query);
  }

  /** A template's next body for each request, whatever the session. */
  private static Expression<String> template(SearchTemplate template) {
    return Expression.<String>of(session -> template.next()).describedAs(template.body());
  }
}
