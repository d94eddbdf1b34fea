package io.fusillade.logs;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One aggregation of a seq-db search ({@code /aggregate}, {@code /complex-search}): a function over
 * a field, optionally per value of another. Immutable.
 *
 * <pre>{@code
 * SeqDbAggregation.count().groupBy("status")            // SELECT status, COUNT(*) GROUP BY status
 * SeqDbAggregation.min("size").groupBy("status")        // SELECT status, MIN(size) GROUP BY status
 * SeqDbAggregation.quantile("size", 0.5, 0.99)
 * }</pre>
 *
 * @param function what is computed
 * @param field the field it is computed over, or null ({@code COUNT} and {@code UNIQUE} need none)
 * @param groupBy the field whose values make the buckets, or null for one bucket
 * @param quantiles for {@link Function#QUANTILE}, the quantiles in [0, 1]
 * @param name the name its buckets go by in {@link SearchResult#aggregations()}, or null for its
 *     position ({@code "0"}, {@code "1"}...)
 */
public record SeqDbAggregation(
    Function function, String field, String groupBy, List<Double> quantiles, String name) {

  /** seq-db's aggregation functions ({@code AGG_FUNC_*}). */
  public enum Function {
    COUNT,
    SUM,
    MIN,
    MAX,
    AVG,
    QUANTILE,
    UNIQUE;

    /** The name in YAML ({@code count}, {@code min}). */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The name in seq-db's API ({@code AGG_FUNC_MIN}). */
    public String wireName() {
      return "AGG_FUNC_" + name();
    }

    /** The function of a label, any case. */
    public static Optional<Function> parse(String label) {
      String key = label == null ? "" : label.strip().toUpperCase(Locale.ROOT);
      return Arrays.stream(values()).filter(f -> f.name().equals(key)).findFirst();
    }
  }

  /** Copies the list and checks that a function that needs a field has one. */
  public SeqDbAggregation {
    quantiles = List.copyOf(quantiles);
    if (function == null) {
      throw new IllegalArgumentException("an aggregation needs a function");
    }
    boolean needsField = function != Function.COUNT && function != Function.UNIQUE;
    if (needsField && (field == null || field.isBlank())) {
      throw new IllegalArgumentException(function.label() + " needs a field");
    }
    if (function == Function.QUANTILE && quantiles.isEmpty()) {
      throw new IllegalArgumentException("quantile needs at least one quantile");
    }
    for (double q : quantiles) {
      if (!(q >= 0 && q <= 1)) {
        throw new IllegalArgumentException("a quantile is in [0, 1], got " + q);
      }
    }
  }

  /** The number of documents (of each group). */
  public static SeqDbAggregation count() {
    return new SeqDbAggregation(Function.COUNT, null, null, List.of(), null);
  }

  public static SeqDbAggregation sum(String field) {
    return new SeqDbAggregation(Function.SUM, field, null, List.of(), null);
  }

  public static SeqDbAggregation min(String field) {
    return new SeqDbAggregation(Function.MIN, field, null, List.of(), null);
  }

  public static SeqDbAggregation max(String field) {
    return new SeqDbAggregation(Function.MAX, field, null, List.of(), null);
  }

  public static SeqDbAggregation avg(String field) {
    return new SeqDbAggregation(Function.AVG, field, null, List.of(), null);
  }

  /** Quantiles of a field, each in [0, 1]. */
  public static SeqDbAggregation quantile(String field, double... quantiles) {
    return new SeqDbAggregation(
        Function.QUANTILE, field, null, Arrays.stream(quantiles).boxed().toList(), null);
  }

  /** The distinct values of {@code field} (seq-db's {@code UNIQUE} groups by it). */
  public static SeqDbAggregation unique(String field) {
    return new SeqDbAggregation(Function.UNIQUE, null, field, List.of(), null);
  }

  /** The same, one bucket per value of {@code field}. */
  public SeqDbAggregation groupBy(String value) {
    return new SeqDbAggregation(function, field, value, quantiles, name);
  }

  /** The same, its buckets named {@code value} (as an Elasticsearch aggregation's would be). */
  public SeqDbAggregation named(String value) {
    return new SeqDbAggregation(function, field, groupBy, quantiles, value);
  }

  /** The aggregation in seq-db's JSON. */
  void write(StringBuilder json) {
    json.append("{\"func\":\"").append(function.wireName()).append('"');
    if (field != null) {
      json.append(",\"field\":").append(SeqDbQuery.quote(field));
    }
    if (groupBy != null) {
      json.append(",\"group_by\":").append(SeqDbQuery.quote(groupBy));
    }
    if (!quantiles.isEmpty()) {
      json.append(",\"quantiles\":[");
      for (int i = 0; i < quantiles.size(); i++) {
        json.append(i > 0 ? "," : "").append(quantiles.get(i));
      }
      json.append(']');
    }
    json.append('}');
  }

  @Override
  public String toString() {
    return function.label()
        + (field != null ? "(" + field + ")" : "")
        + (groupBy != null ? " by " + groupBy : "");
  }
}
