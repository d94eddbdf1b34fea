package io.fusillade.logs;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a web data set holds, counted from its generator rather than asked of a store: how many
 * documents have a field in a set of values, and per value of a field, how many documents there are
 * or the least, greatest, summed or mean value of another. A store that stored documents {@code [0,
 * n)} of the same seed must answer the same; a read checked against these counts proves the store
 * found every document it should, and no other.
 *
 * <pre>{@code
 * WebLogTally.Count errors = WebLogTally.count("status", List.of("500", "400", "403"));
 * WebLogTally.Buckets minSize = WebLogTally.buckets("status", SeqDbAggregation.Function.MIN, "size");
 * WebLogTally.run(new WebLogs(42), 1_000_000, List.of(errors, minSize));
 * errors.result();   // 30,012
 * minSize.result();  // {200=12.0, 206=9.0, ...}
 * }</pre>
 *
 * <p>One pass over the data set answers every question given to {@link #run}: about half a second
 * per million documents.
 */
public final class WebLogTally {
  private WebLogTally() {}

  /** A question about every document. */
  public interface Question {
    /** Takes one document into account. */
    void add(WebLogs.Entry entry);
  }

  /** Documents whose {@code field} is one of {@code values} (compared as text). */
  public static Count count(String field, Collection<String> values) {
    return new Count(checked(field), Set.copyOf(values));
  }

  /**
   * Per value of {@code groupBy}: the number of documents ({@code COUNT}), or the {@code MIN},
   * {@code MAX}, {@code SUM} or {@code AVG} of {@code field}.
   */
  public static Buckets buckets(String groupBy, SeqDbAggregation.Function function, String field) {
    if (function != SeqDbAggregation.Function.COUNT) {
      checked(field);
      if (!field.equals("size") && !field.equals("status") && !field.equals("@timestamp")) {
        throw new IllegalArgumentException(
            function.label() + " of " + field + ": only size, status and @timestamp are numbers");
      }
    }
    switch (function) {
      case COUNT, MIN, MAX, SUM, AVG -> {}
      default ->
          throw new IllegalArgumentException(
              "the generator counts count, min, max, sum and avg, not " + function.label());
    }
    return new Buckets(checked(groupBy), function, field);
  }

  /** Answers every question in one pass over documents {@code [0, documents)}. */
  public static void run(WebLogs logs, long documents, List<? extends Question> questions) {
    if (questions.isEmpty()) {
      return;
    }
    for (long i = 0; i < documents; i++) {
      WebLogs.Entry entry = logs.entry(i);
      for (Question q : questions) {
        q.add(entry);
      }
    }
  }

  private static String checked(String field) {
    if (!WebLogs.Entry.FIELDS.contains(field)) {
      throw new IllegalArgumentException(
          "the web profile has no field '"
              + field
              + "' (its fields: "
              + String.join(", ", WebLogs.Entry.FIELDS)
              + ")");
    }
    return field;
  }

  /** See {@link #count}. */
  public static final class Count implements Question {
    private final String field;
    private final Set<String> values;
    private long result;

    private Count(String field, Set<String> values) {
      this.field = field;
      this.values = values;
    }

    @Override
    public void add(WebLogs.Entry entry) {
      if (values.contains(entry.value(field))) {
        result++;
      }
    }

    /** The number of documents counted. */
    public long result() {
      return result;
    }
  }

  /** See {@link #buckets}. */
  public static final class Buckets implements Question {
    private final String groupBy;
    private final SeqDbAggregation.Function function;
    private final String field;
    private final Map<String, double[]> groups = new TreeMap<>(); // value, count

    private Buckets(String groupBy, SeqDbAggregation.Function function, String field) {
      this.groupBy = groupBy;
      this.function = function;
      this.field = field;
    }

    @Override
    public void add(WebLogs.Entry entry) {
      double[] group =
          groups.computeIfAbsent(entry.value(groupBy), k -> new double[] {Double.NaN, 0});
      group[1]++;
      if (function == SeqDbAggregation.Function.COUNT) {
        return;
      }
      double v = Double.parseDouble(entry.value(field));
      group[0] =
          Double.isNaN(group[0])
              ? v
              : switch (function) {
                case MIN -> Math.min(group[0], v);
                case MAX -> Math.max(group[0], v);
                default -> group[0] + v; // SUM, and AVG until divided
              };
    }

    /** The value of each group, by the group's value as text. */
    public Map<String, Double> result() {
      Map<String, Double> out = new TreeMap<>();
      groups.forEach(
          (key, g) ->
              out.put(
                  key,
                  switch (function) {
                    case COUNT -> g[1];
                    case AVG -> g[0] / g[1];
                    default -> g[0];
                  }));
      return out;
    }

    /** What is counted, for messages: {@code min(size) by status}. */
    @Override
    public String toString() {
      return function.label() + (field != null ? "(" + field + ")" : "") + " by " + groupBy;
    }
  }
}
