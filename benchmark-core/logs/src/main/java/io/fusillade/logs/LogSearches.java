package io.fusillade.logs;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The seq-db benchmark's six read-path scenarios over the {@link WebLogs} data set, with its
 * concurrency and duration, each in Elasticsearch's query DSL and in seq-db's terms ({@link
 * SearchScenario#seqDb()}), the two drawing the same pages and ranges for one seed. Every search is
 * sent with {@code request_cache=false} and {@code track_total_hits=false} (see {@link
 * #QUERY_STRING}), as in the seed.
 *
 * <ol>
 *   <li>{@code offset paging}: all logs, newest first, a random page 1-50 of 200 (from + size stays
 *       within Elasticsearch's 10,000 window); 20 users for 10 s.
 *   <li>{@code status in}: {@code status in (500, 400, 403)}; 20 users for 10 s.
 *   <li>{@code request phrase}: {@code request: "GET /english/images/top_stories.gif HTTP/1.0"}; 20
 *       users for 10 s.
 *   <li>{@code count by status}: {@code SELECT status, COUNT(*) GROUP BY status}; 10 requests from
 *       2 users.
 *   <li>{@code min size by status}: {@code SELECT status, MIN(size) GROUP BY status}; 5 requests
 *       from 1 user.
 *   <li>{@code range pages}: a time range holding 5,000 documents at a random place in the data, a
 *       random page 1-50 of 100; 20 users for 10 s.
 * </ol>
 */
public final class LogSearches {
  /** The URL parameters of every search. */
  public static final String QUERY_STRING = "request_cache=false&track_total_hits=false";

  /** The names of the six scenarios, in order. */
  public static final List<String> NAMES =
      List.of(
          "offset paging",
          "status in",
          "request phrase",
          "count by status",
          "min size by status",
          "range pages");

  private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

  private LogSearches() {}

  /** A seq-db form whose query is fixed and whose offset is {@code offset}'s. */
  private static SearchScenario.SeqDbForm seqDb(SeqDbQuery base, SearchTemplate offset, long seed) {
    return new SearchScenario.SeqDbForm(base, SearchTemplate.of(base.query()), offset).seed(seed);
  }

  /**
   * The six scenarios for an index holding documents {@code [0, documents)} of {@code logs}.
   *
   * @param logs the generator the index was filled from (for the timestamps of the range query)
   * @param documents how many documents the index holds
   * @param seed the seed of the search parameters
   */
  public static List<SearchScenario> web(WebLogs logs, long documents, long seed) {
    return NAMES.stream().map(n -> web(n, logs, documents, seed).orElseThrow()).toList();
  }

  /** One of the six scenarios by name (case-insensitive; spaces or dashes). */
  public static Optional<SearchScenario> web(String name, WebLogs logs, long documents, long seed) {
    String key = name.strip().toLowerCase(Locale.ROOT).replace('-', ' ').replace('_', ' ');
    long rangeDocs = Math.min(5_000, Math.max(1, documents));
    long rangeSeconds = Math.max(1, rangeDocs / logs.docsPerSecond());
    long lastStart = Math.max(logs.start(), logs.timestamp(Math.max(0, documents - rangeDocs)));
    return Optional.ofNullable(
        switch (key) {
          case "offset paging" ->
              new SearchScenario(
                  "offset paging",
                  SearchTemplate.of(
                          "{\"query\":{\"match_all\":{}},\"sort\":[{\"@timestamp\":\"desc\"}],"
                              + "\"from\":{{from}},\"size\":200}")
                      .param("from", rng -> 200 * rng.nextLong(0, 49))
                      .seed(seed),
                  20,
                  TEN_SECONDS,
                  0,
                  1,
                  null,
                  0,
                  seqDb(
                      SeqDbQuery.of("*").withSize(200),
                      SearchTemplate.of("{{from}}").param("from", rng -> 200 * rng.nextLong(0, 49)),
                      seed));
          case "status in" ->
              new SearchScenario(
                  "status in",
                  SearchTemplate.of(
                      "{\"query\":{\"terms\":{\"status\":[500,400,403]}},\"size\":100}"),
                  20,
                  TEN_SECONDS,
                  0,
                  1,
                  null,
                  0,
                  seqDb(
                      SeqDbQuery.of("status:in(500, 400, 403)").withSize(100),
                      SearchTemplate.of("0"),
                      seed));
          case "request phrase" ->
              new SearchScenario(
                  "request phrase",
                  SearchTemplate.of(
                      "{\"query\":{\"match_phrase\":{\"request\":"
                          + new String(JsonBuffer.quoted(WebLogs.TOP_REQUEST))
                          + "}},\"size\":100}"),
                  20,
                  TEN_SECONDS,
                  0,
                  1,
                  null,
                  0,
                  seqDb(
                      SeqDbQuery.of("request:" + SeqDbQuery.quote(WebLogs.TOP_REQUEST))
                          .withSize(100),
                      SearchTemplate.of("0"),
                      seed));
          case "count by status" ->
              new SearchScenario(
                  "count by status",
                  SearchTemplate.of(
                      "{\"size\":0,\"aggs\":{\"by_status\":"
                          + "{\"terms\":{\"field\":\"status\",\"size\":100}}}}"),
                  2,
                  null,
                  5,
                  0,
                  "by_status",
                  1,
                  seqDb(
                      SeqDbQuery.of("*")
                          .withSize(0)
                          .withAggregations(
                              List.of(
                                  SeqDbAggregation.count().groupBy("status").named("by_status"))),
                      SearchTemplate.of("0"),
                      seed));
          case "min size by status" ->
              new SearchScenario(
                  "min size by status",
                  SearchTemplate.of(
                      "{\"size\":0,\"aggs\":{\"by_status\":"
                          + "{\"terms\":{\"field\":\"status\",\"size\":100},"
                          + "\"aggs\":{\"min_size\":{\"min\":{\"field\":\"size\"}}}}}}"),
                  1,
                  null,
                  5,
                  0,
                  "by_status",
                  1,
                  seqDb(
                      SeqDbQuery.of("*")
                          .withSize(0)
                          .withAggregations(
                              List.of(
                                  SeqDbAggregation.min("size")
                                      .groupBy("status")
                                      .named("by_status"))),
                      SearchTemplate.of("0"),
                      seed));
          case "range pages" ->
              new SearchScenario(
                  "range pages",
                  SearchTemplate.of(
                          "{\"query\":{\"range\":{\"@timestamp\":{\"gte\":{{start}},"
                              + "\"lt\":{{end}}}}},\"sort\":[{\"@timestamp\":\"asc\"}],"
                              + "\"from\":{{from}},\"size\":100}")
                      .param("start", rng -> rng.nextLong(logs.start(), lastStart))
                      .derived("end", "start", start -> start + rangeSeconds)
                      .param("from", rng -> 100 * rng.nextLong(0, 49))
                      .seed(seed),
                  20,
                  TEN_SECONDS,
                  0,
                  1,
                  null,
                  0,
                  new SearchScenario.SeqDbForm(
                      SeqDbQuery.of("*").withSize(100).oldestFirst(),
                      SearchTemplate.of("'@timestamp':[{{start}}, {{end}})")
                          .param("start", rng -> rng.nextLong(logs.start(), lastStart))
                          .derived("end", "start", start -> start + rangeSeconds)
                          .seed(seed),
                      SearchTemplate.of("{{from}}")
                          .param("from", rng -> 100 * rng.nextLong(0, 49))
                          .seed(seed)));
          default -> null;
        });
  }
}
