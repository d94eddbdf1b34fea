package io.fusillade.logs;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One read of seq-db's search API, every value resolved: a seq-ql query over a time window, with a
 * page of documents, aggregations, a histogram, or several at once. {@link #endpoint()} is where it
 * goes and {@link #body()} what is sent (with {@code Grpc-Metadata-use-seq-ql: true}).
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><th>asks for</th><th>endpoint</th></tr>
 *   <tr><td>documents only (the default)</td><td>{@code /search}</td></tr>
 *   <tr><td>aggregations only</td><td>{@code /aggregate}</td></tr>
 *   <tr><td>a histogram only</td><td>{@code /histogram}</td></tr>
 *   <tr><td>more than one of them</td><td>{@code /complex-search}</td></tr>
 * </table>
 *
 * @param query the seq-ql query ({@code status:500}, {@code *} for every document)
 * @param from the window's start, RFC 3339 ({@code 2000-01-01T00:00:00Z}), inclusive
 * @param to the window's end, inclusive
 * @param size documents to return, 0 for none (aggregations, a histogram or the total only; a
 *     search with none of these asks for one document, as seq-db refuses a size of 0)
 * @param offset documents to skip: a page's offset
 * @param withTotal whether the answer counts every matching document ({@code total})
 * @param ascending oldest first instead of newest first
 * @param aggregations the aggregations, in order; their buckets are named {@code "0"}, {@code
 *     "1"}...
 * @param histogram the histogram's interval ({@code 1m}, {@code 5s}), or null for none
 */
public record SeqDbQuery(
    String query,
    String from,
    String to,
    int size,
    long offset,
    boolean withTotal,
    boolean ascending,
    List<SeqDbAggregation> aggregations,
    String histogram) {

  /**
   * The default window: wide enough for any document. seq-db stamps a document with its {@code
   * timestamp}, {@code time} or {@code ts} field, or with the time it arrived (the web profile's
   * {@code @timestamp} in epoch seconds is none of those): a window around "now" would do, a fixed
   * wide one does always.
   */
  public static final String DEFAULT_FROM = "2000-01-01T00:00:00Z";

  /** The default window's end. */
  public static final String DEFAULT_TO = "2099-12-31T23:59:59Z";

  /** The name of the histogram's buckets in {@link SearchResult#aggregations()}. */
  public static final String HISTOGRAM = "histogram";

  /** Copies the list and checks the numbers. */
  public SeqDbQuery {
    aggregations = List.copyOf(aggregations);
    if (query == null) {
      throw new IllegalArgumentException("a seq-db search needs a query ('*' for every document)");
    }
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0, got " + size);
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0, got " + offset);
    }
  }

  /** A search for {@code query} over the default window: 100 documents, newest first. */
  public static SeqDbQuery of(String query) {
    return new SeqDbQuery(query, DEFAULT_FROM, DEFAULT_TO, 100, 0, false, false, List.of(), null);
  }

  public SeqDbQuery withSize(int value) {
    return new SeqDbQuery(
        query, from, to, value, offset, withTotal, ascending, aggregations, histogram);
  }

  public SeqDbQuery withOffset(long value) {
    return new SeqDbQuery(
        query, from, to, size, value, withTotal, ascending, aggregations, histogram);
  }

  public SeqDbQuery withTotal(boolean value) {
    return new SeqDbQuery(query, from, to, size, offset, value, ascending, aggregations, histogram);
  }

  /** Oldest documents first. */
  public SeqDbQuery oldestFirst() {
    return new SeqDbQuery(query, from, to, size, offset, withTotal, true, aggregations, histogram);
  }

  public SeqDbQuery withAggregations(List<SeqDbAggregation> value) {
    return new SeqDbQuery(query, from, to, size, offset, withTotal, ascending, value, histogram);
  }

  public SeqDbQuery withHistogram(String interval) {
    return new SeqDbQuery(
        query, from, to, size, offset, withTotal, ascending, aggregations, interval);
  }

  /**
   * Where it goes: {@code /search}, {@code /aggregate}, {@code /histogram} or {@code
   * /complex-search}.
   */
  public String endpoint() {
    boolean docs = size > 0 || withTotal;
    boolean aggs = !aggregations.isEmpty();
    boolean hist = histogram != null;
    int parts = (docs ? 1 : 0) + (aggs ? 1 : 0) + (hist ? 1 : 0);
    if (parts > 1) {
      return "/complex-search";
    }
    return aggs ? "/aggregate" : hist ? "/histogram" : "/search";
  }

  /** The JSON body for {@link #endpoint()}. */
  public String body() {
    String endpoint = endpoint();
    StringBuilder json = new StringBuilder(128 + query.length());
    json.append("{\"query\":{\"query\":").append(quote(query));
    json.append(",\"from\":").append(quote(from)).append(",\"to\":").append(quote(to)).append('}');
    boolean documents = endpoint.equals("/search") || endpoint.equals("/complex-search");
    if (documents) {
      // /search refuses a size of 0; one document is the least there is to ask for a total
      json.append(",\"size\":").append(Math.max(size, endpoint.equals("/search") ? 1 : 0));
      json.append(",\"offset\":").append(offset);
      json.append(",\"with_total\":").append(withTotal);
      json.append(",\"order\":\"").append(ascending ? "ORDER_ASC" : "ORDER_DESC").append('"');
    }
    if (!aggregations.isEmpty()) {
      json.append(",\"aggs\":[");
      for (int i = 0; i < aggregations.size(); i++) {
        if (i > 0) {
          json.append(',');
        }
        aggregations.get(i).write(json);
      }
      json.append(']');
    }
    if (histogram != null) {
      json.append(",\"hist\":{\"interval\":").append(quote(histogram)).append('}');
    }
    return json.append('}').toString();
  }

  static String quote(String text) {
    return new String(JsonBuffer.quoted(text), StandardCharsets.UTF_8);
  }
}
