package io.fusillade.gatling.logs;

import io.fusillade.logs.SearchResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a read must return to be OK, on either store: its own error first (an HTTP error, a
 * connection failure, seq-db's {@code error.code}), then the fewest hits, the exact total, the
 * fewest buckets of an aggregation, and the exact buckets of one. The first check that fails is the
 * KO's reason.
 *
 * @param minHits the fewest documents returned (0: no check)
 * @param hits the exact number of documents returned, or -1 for no check
 * @param total the exact number of matching documents, or -1 for no check (Elasticsearch counts
 *     only with {@code track_total_hits=true}; seq-db only {@code withTotal()})
 * @param aggregation the aggregation whose buckets are counted, or null
 * @param minBuckets the fewest buckets it must have
 * @param bucketsOf the aggregation whose buckets are compared ({@link #ONLY}: the answer's only
 *     one), or null
 * @param bucketCounts whether {@code buckets} holds document counts (else each bucket's single
 *     value: a {@code min}, an {@code avg}...)
 * @param buckets the expected bucket values by key, exactly: no bucket more, none less
 */
record SearchChecks(
    int minHits,
    int hits,
    long total,
    String aggregation,
    int minBuckets,
    String bucketsOf,
    boolean bucketCounts,
    Map<String, Double> buckets) {

  static final SearchChecks NONE = new SearchChecks(0, -1, -1, null, 0, null, false, Map.of());

  /** The aggregation name that stands for the answer's only aggregation, whatever its name. */
  static final String ONLY = "";

  SearchChecks {
    buckets = Map.copyOf(buckets);
  }

  SearchChecks withMinHits(int value) {
    return new SearchChecks(
        value, hits, total, aggregation, minBuckets, bucketsOf, bucketCounts, buckets);
  }

  SearchChecks withHits(int value) {
    return new SearchChecks(
        minHits, value, total, aggregation, minBuckets, bucketsOf, bucketCounts, buckets);
  }

  SearchChecks withTotal(long value) {
    return new SearchChecks(
        minHits, hits, value, aggregation, minBuckets, bucketsOf, bucketCounts, buckets);
  }

  SearchChecks withMinBuckets(String name, int value) {
    return new SearchChecks(minHits, hits, total, name, value, bucketsOf, bucketCounts, buckets);
  }

  SearchChecks withBuckets(String name, boolean counts, Map<String, ? extends Number> expected) {
    Map<String, Double> values = new LinkedHashMap<>();
    expected.forEach((k, v) -> values.put(k, v.doubleValue()));
    return new SearchChecks(minHits, hits, total, aggregation, minBuckets, name, counts, values);
  }

  /** The reason {@code r} is KO, or null when every check passes. */
  String check(SearchResult r) {
    if (!r.ok()) {
      return r.error();
    }
    if (r.hits() < minHits) {
      return "fewer than " + minHits + " hits";
    }
    if (hits >= 0 && r.hits() != hits) {
      return r.hits() + " hits, expected " + hits;
    }
    if (total >= 0) {
      if (r.totalHits() < 0) {
        return "no total in the answer";
      }
      if (r.totalHits() != total) {
        return "total " + r.totalHits() + ", expected " + total;
      }
    }
    if (aggregation != null && r.buckets(aggregation).size() < minBuckets) {
      return "fewer than " + minBuckets + " buckets in " + aggregation;
    }
    if (bucketsOf != null) {
      return compareBuckets(r);
    }
    return null;
  }

  /**
   * seq-db's bucket of the documents without the grouped field, which Elasticsearch's terms
   * aggregation leaves out: not one of the data set's values (Fusillade's own time-to-searchable
   * markers are such documents), so not an unexpected bucket.
   */
  static final String SEQ_DB_MISSING = "_not_exists";

  private String compareBuckets(SearchResult r) {
    String name = bucketsOf;
    if (name.equals(ONLY)) {
      if (r.aggregations().size() != 1) {
        return r.aggregations().size() + " aggregations in the answer, expected one";
      }
      name = r.aggregations().keySet().iterator().next();
    }
    Map<String, Double> got = new TreeMap<>();
    for (SearchResult.Bucket b : r.buckets(name)) {
      got.put(b.key(), bucketCounts ? (double) b.docCount() : single(b));
    }
    for (Map.Entry<String, Double> e : new TreeMap<>(buckets).entrySet()) {
      Double value = got.get(e.getKey());
      if (value == null) {
        return "no bucket " + e.getKey() + " in " + name;
      }
      if (!same(value, e.getValue())) {
        return "bucket "
            + e.getKey()
            + " of "
            + name
            + ": "
            + number(value)
            + ", expected "
            + number(e.getValue());
      }
    }
    for (String key : got.keySet()) {
      if (!buckets.containsKey(key) && !key.equals(SEQ_DB_MISSING)) {
        return "unexpected bucket " + key + " in " + name;
      }
    }
    return null;
  }

  /** A bucket's one value: seq-db's {@code value}, or Elasticsearch's single sub-aggregation. */
  private static double single(SearchResult.Bucket b) {
    Double value = b.values().get("value");
    if (value != null) {
      return value;
    }
    return b.values().size() == 1 ? b.values().values().iterator().next() : Double.NaN;
  }

  private static boolean same(double a, double b) {
    return a == b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }

  private static String number(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
