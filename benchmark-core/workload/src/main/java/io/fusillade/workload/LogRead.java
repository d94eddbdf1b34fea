package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import java.util.List;
import java.util.Map;

/**
 * A read a workload writes itself, for either store or both: its body in Elasticsearch's query DSL
 * ({@code es}), its seq-db form ({@code seq-db}), the seeded parameters they use as Gatling EL
 * ({@code #{offset}}), and what the answers must hold ({@code expect}). Plain data as the file
 * gives it; the runner maps it to the log client's reads ({@code
 * io.fusillade.scenarios.logs.LogsWorkloadMapping}). See {@code src/site/workloads.md}.
 *
 * @param params the parameters drawn before each request, in order
 * @param es the query DSL body, a Gatling EL template, or null when the read has no such form
 * @param queryString the URL query string of the query DSL search, or null for the default
 * @param seqDb the seq-db form, or null
 * @param expect what the answers must hold
 */
public record LogRead(
    List<Param> params, String es, String queryString, SeqDb seqDb, Expect expect) {

  /** Copies the list. */
  public LogRead {
    params = List.copyOf(params);
  }

  /**
   * A parameter: a generated value ({@code spec}, a query parameter's keys: {@code type}, {@code
   * distribution}, {@code range}...), or one derived from an earlier parameter ({@code from}):
   * {@code value * times + plus}.
   *
   * @param name the session attribute ({@code #{name}})
   * @param spec what to generate, or null for a derived value
   * @param from the earlier parameter it is derived from, or null
   * @param times the factor of a derived value (1 by default)
   * @param plus the addend of a derived value (0 by default)
   */
  public record Param(String name, ValueSpec spec, String from, long times, long plus) {}

  /**
   * The read in seq-db's terms (every string a Gatling EL template).
   *
   * @param query the seq-ql query
   * @param size documents per answer (a number or EL), or null for the default
   * @param offset documents to skip (a number or EL), or null for 0
   * @param from the window's start (RFC 3339), or null for the default
   * @param to the window's end, or null for the default
   * @param total whether the answer counts every matching document
   * @param oldestFirst whether documents come oldest first
   * @param aggregations the aggregations, in order
   * @param histogram the histogram's interval, or null
   */
  public record SeqDb(
      String query,
      String size,
      String offset,
      String from,
      String to,
      boolean total,
      boolean oldestFirst,
      List<Aggregation> aggregations,
      String histogram) {

    /** Copies the list. */
    public SeqDb {
      aggregations = List.copyOf(aggregations);
    }
  }

  /**
   * One seq-db aggregation.
   *
   * @param function {@code count}, {@code sum}, {@code min}, {@code max}, {@code avg}, {@code
   *     quantile} or {@code unique}
   * @param field the field, or null
   * @param groupBy the grouping field, or null
   * @param quantiles the quantiles of {@code quantile}
   * @param name the name its buckets go by, or null for its position
   */
  public record Aggregation(
      String function, String field, String groupBy, List<Double> quantiles, String name) {

    /** Copies the list. */
    public Aggregation {
      quantiles = List.copyOf(quantiles);
    }
  }

  /**
   * What every answer of the read must hold, and what one answer after the reads must count.
   *
   * @param hits every answer holds exactly this many documents, or null
   * @param minHits every answer holds at least this many documents, or null
   * @param count the documents the read matches, checked once after the reads with the total asked
   *     for, or null: this number
   * @param countWhere ... or, when not empty, the generator's count of documents whose field (the
   *     key) holds one of the values
   * @param buckets every answer's only aggregation equals the generator's, or null
   */
  public record Expect(
      Integer hits,
      Integer minHits,
      Long count,
      Map<String, List<String>> countWhere,
      Buckets buckets) {

    /** Nothing expected. */
    public static final Expect NONE = new Expect(null, null, null, Map.of(), null);

    /** Copies the map. */
    public Expect {
      countWhere = Map.copyOf(countWhere);
    }

    /** Whether a total is checked after the reads. */
    public boolean countsTotal() {
      return count != null || !countWhere.isEmpty();
    }

    /** Whether anything is asked of the generator (the web profile's, from the seed). */
    public boolean usesGenerator() {
      return !countWhere.isEmpty() || buckets != null;
    }
  }

  /**
   * Per value of {@code groupBy}, the documents ({@code count}) or the {@code min}, {@code max},
   * {@code sum} or {@code avg} of {@code field}, as the generator counts them.
   */
  public record Buckets(String groupBy, String function, String field) {}
}
