package io.fusillade.workload;

import io.fusillade.gen.ValueSpec;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the part of a {@code logs.searches} item that a workload writes itself ({@link LogRead}):
 * {@code params}, {@code es}, {@code query_string}, {@code seq-db} and {@code expect}. Every {@code
 * #{name}} of a body or a seq-db string must be one of the read's parameters.
 */
final class LogReadParser extends FieldReader {
  /** The keys of a search item that make it a read of the workload's own. */
  static final Set<String> READ_KEYS = keys("params", "es", "query_string", "seq-db", "expect");

  private static final Set<String> PARAM_KEYS = keys("name", "from", "times", "plus");
  private static final Set<String> SEQ_DB_KEYS =
      keys("query", "size", "offset", "from", "to", "total", "order", "aggregate", "histogram");
  private static final Set<String> AGGREGATE_KEYS =
      keys("func", "field", "group_by", "quantiles", "name");
  private static final Set<String> EXPECT_KEYS = keys("hits", "min_hits", "count", "buckets");
  private static final List<String> FUNCTIONS =
      List.of("count", "sum", "min", "max", "avg", "quantile", "unique");
  private static final List<String> BUCKET_FUNCTIONS = List.of("count", "min", "max", "sum", "avg");

  /** The web profile's fields, which the generator counts. */
  static final List<String> WEB_FIELDS =
      List.of("@timestamp", "clientip", "request", "status", "size");

  private static final Pattern EL = Pattern.compile("#\\{([^}]*)}");

  private final ValueParser values;

  LogReadParser(FieldReader shared) {
    super(shared);
    this.values = new ValueParser(shared);
  }

  /** The read of search item {@code m}, or null when it has problems (reported). */
  LogRead read(MapNode m, String path) {
    int before = problems.size();
    List<LogRead.Param> params = params(m, path);
    Set<String> names = new LinkedHashSet<>();
    params.forEach(p -> names.add(p.name()));
    String es = string(m, path, "es", false);
    if (es != null) {
      checkEl(field(m, "es"), join(path, "es"), es, names);
    }
    String queryString = string(m, path, "query_string", false);
    if (queryString != null && es == null) {
      problem(field(m, "query_string"), join(path, "query_string"), "query_string needs es");
    }
    LogRead.SeqDb seqDb = null;
    YamlNode seqDbNode = field(m, "seq-db");
    if (seqDbNode != null) {
      MapNode s = asMap(seqDbNode, join(path, "seq-db"));
      if (s != null) {
        seqDb = seqDb(s, join(path, "seq-db"), names);
      }
    }
    if (es == null && seqDbNode == null) {
      problem(m, path, "a search of your own needs es (the query DSL body), seq-db, or both");
    }
    LogRead.Expect expect = LogRead.Expect.NONE;
    YamlNode expectNode = field(m, "expect");
    if (expectNode != null) {
      MapNode e = asMap(expectNode, join(path, "expect"));
      if (e != null) {
        expect = expect(e, join(path, "expect"));
      }
    }
    if (problems.size() > before || expect == null) {
      return null;
    }
    return new LogRead(params, es, queryString, seqDb, expect);
  }

  private List<LogRead.Param> params(MapNode m, String path) {
    List<LogRead.Param> params = new ArrayList<>();
    Map<String, Location> seen = new LinkedHashMap<>();
    List<YamlNode> nodes = list(m, path, "params");
    for (int i = 0; i < nodes.size(); i++) {
      String itemPath = join(path, "params[" + i + "]");
      MapNode p = asMap(nodes.get(i), itemPath);
      if (p == null) {
        continue;
      }
      LogRead.Param param;
      if (field(p, "from") != null) {
        checkKeys(p, itemPath, PARAM_KEYS);
        String name = string(p, itemPath, "name", true);
        String from = string(p, itemPath, "from", true);
        Long times = integer(p, itemPath, "times", false);
        Long plus = integer(p, itemPath, "plus", false);
        if (from != null && !seen.containsKey(from)) {
          problem(
              field(p, "from"),
              join(itemPath, "from"),
              "no parameter '" + from + "' before this one to derive it from");
          continue;
        }
        if (name == null) {
          continue;
        }
        param =
            new LogRead.Param(name, null, from, times == null ? 1 : times, plus == null ? 0 : plus);
      } else {
        ValueSpec spec = values.value(p, itemPath, null, 1, "");
        if (spec == null) {
          continue;
        }
        param = new LogRead.Param(spec.name(), spec, null, 1, 0);
      }
      firstUse(seen, param.name(), p, itemPath, "parameter");
      params.add(param);
    }
    return params;
  }

  private LogRead.SeqDb seqDb(MapNode s, String path, Set<String> names) {
    checkKeys(s, path, SEQ_DB_KEYS);
    String query = string(s, path, "query", true);
    String size = scalarOrNull(s, path, "size");
    String offset = scalarOrNull(s, path, "offset");
    String from = string(s, path, "from", false);
    String to = string(s, path, "to", false);
    Boolean total = bool(s, path, "total");
    String order =
        enumField(
            s,
            path,
            "order",
            false,
            o ->
                java.util.Optional.of(o.strip().toLowerCase(java.util.Locale.ROOT))
                    .filter(v -> v.equals("asc") || v.equals("desc")),
            List.of("desc", "asc"));
    String histogram = string(s, path, "histogram", false);
    for (String key : List.of("query", "size", "offset", "from", "to", "histogram")) {
      YamlNode node = field(s, key);
      if (node instanceof Scalar sc && !sc.isNull()) {
        checkEl(node, join(path, key), sc.text(), names);
      }
    }
    List<LogRead.Aggregation> aggregations = new ArrayList<>();
    eachMapping(
        s,
        path,
        "aggregate",
        (a, aPath, i) -> {
          LogRead.Aggregation agg = aggregation(a, aPath);
          if (agg != null) {
            aggregations.add(agg);
          }
        });
    if (query == null) {
      return null;
    }
    return new LogRead.SeqDb(
        query,
        size,
        offset,
        from,
        to,
        total != null && total,
        "asc".equals(order),
        aggregations,
        histogram);
  }

  private LogRead.Aggregation aggregation(MapNode a, String path) {
    checkKeys(a, path, AGGREGATE_KEYS);
    String function =
        enumField(
            a,
            path,
            "func",
            true,
            f ->
                java.util.Optional.of(f.strip().toLowerCase(java.util.Locale.ROOT))
                    .filter(FUNCTIONS::contains),
            FUNCTIONS);
    String field = string(a, path, "field", false);
    String groupBy = string(a, path, "group_by", false);
    String name = string(a, path, "name", false);
    List<Double> quantiles = new ArrayList<>();
    List<YamlNode> qs = list(a, path, "quantiles");
    for (int i = 0; i < qs.size(); i++) {
      Double q = numberOf(qs.get(i), join(path, "quantiles[" + i + "]"));
      if (q != null) {
        if (q < 0 || q > 1) {
          problem(qs.get(i), join(path, "quantiles[" + i + "]"), "a quantile is in [0, 1]");
        } else {
          quantiles.add(q);
        }
      }
    }
    if (function == null) {
      return null;
    }
    if (!function.equals("count") && !function.equals("unique") && field == null) {
      problem(a, join(path, "field"), function + " needs a field");
      return null;
    }
    if (function.equals("unique") && groupBy == null) {
      problem(a, join(path, "group_by"), "unique needs group_by: the field whose values it lists");
      return null;
    }
    if (function.equals("quantile") && quantiles.isEmpty()) {
      problem(a, join(path, "quantiles"), "quantile needs quantiles, e.g. [0.5, 0.99]");
      return null;
    }
    return new LogRead.Aggregation(function, field, groupBy, quantiles, name);
  }

  private LogRead.Expect expect(MapNode e, String path) {
    int before = problems.size();
    checkKeys(e, path, EXPECT_KEYS);
    Long hits = bounded(e, path, "hits", 0, 1_000_000);
    Long minHits = bounded(e, path, "min_hits", 0, 1_000_000);
    Long count = null;
    Map<String, List<String>> where = new LinkedHashMap<>();
    YamlNode countNode = field(e, "count");
    if (countNode instanceof MapNode c) {
      for (YamlNode.Entry entry : c.entries()) {
        String fieldPath = join(join(path, "count"), entry.key());
        if (!WEB_FIELDS.contains(entry.key())) {
          problem(entry.value(), fieldPath, unknownField(entry.key()));
          continue;
        }
        List<String> wanted = new ArrayList<>();
        if (entry.value() instanceof ListNode l) {
          for (int i = 0; i < l.items().size(); i++) {
            String v = scalarString(l.items().get(i), fieldPath + "[" + i + "]");
            if (v != null) {
              wanted.add(v);
            }
          }
        } else {
          String v = scalarString(entry.value(), fieldPath);
          if (v != null) {
            wanted.add(v);
          }
        }
        where.put(entry.key(), wanted);
      }
      if (where.size() > 1) {
        problem(countNode, join(path, "count"), "count one field's values, e.g. {status: [500]}");
      }
    } else if (countNode != null) {
      count = integerOf(countNode, join(path, "count"));
    }
    LogRead.Buckets buckets = null;
    YamlNode bucketsNode = field(e, "buckets");
    if (bucketsNode != null) {
      MapNode b = asMap(bucketsNode, join(path, "buckets"));
      if (b != null) {
        buckets = buckets(b, join(path, "buckets"));
      }
    }
    if (problems.size() > before) {
      return null;
    }
    return new LogRead.Expect(
        hits == null ? null : hits.intValue(),
        minHits == null ? null : minHits.intValue(),
        count,
        where,
        buckets);
  }

  private LogRead.Buckets buckets(MapNode b, String path) {
    Set<String> allowed = new LinkedHashSet<>(List.of("group_by"));
    allowed.addAll(BUCKET_FUNCTIONS);
    checkKeys(b, path, allowed);
    String groupBy = string(b, path, "group_by", true);
    if (groupBy != null && !WEB_FIELDS.contains(groupBy)) {
      problem(field(b, "group_by"), join(path, "group_by"), unknownField(groupBy));
      return null;
    }
    String function = "count";
    String of = null;
    int given = 0;
    for (String f : BUCKET_FUNCTIONS) {
      if (field(b, f) != null) {
        given++;
        function = f;
        of = f.equals("count") ? null : string(b, path, f, true);
      }
    }
    if (given > 1) {
      problem(b, path, "one of count, min, max, sum or avg per expectation");
      return null;
    }
    if (of != null && !List.of("size", "status", "@timestamp").contains(of)) {
      problem(
          field(b, function),
          join(path, function),
          function
              + " of '"
              + of
              + "': the numbers of the web profile are size, status and"
              + " @timestamp");
      return null;
    }
    return groupBy == null ? null : new LogRead.Buckets(groupBy, function, of);
  }

  /** A scalar as text (a number or an EL string), or null when absent. */
  private String scalarOrNull(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return null;
    }
    return scalarString(node, join(path, key));
  }

  /** Every {@code #{name}} of {@code text} must be a parameter of the read. */
  private void checkEl(YamlNode node, String path, String text, Set<String> names) {
    Matcher m = EL.matcher(text);
    while (m.find()) {
      String name = m.group(1).strip();
      // Gatling's own functions and nested attributes (#{randomUuid()}, #{user.id}) are its
      boolean gatlings = name.contains("(") || name.contains(".");
      if (!gatlings && !names.contains(name)) {
        problem(
            node,
            path,
            "#{"
                + name
                + "} is no parameter of this search"
                + (names.isEmpty()
                    ? " (it has none: add params)"
                    : " (its params: " + String.join(", ", names) + ")"));
      }
    }
  }

  private static String unknownField(String name) {
    return "the generator counts the web profile's fields ("
        + String.join(", ", WEB_FIELDS)
        + "), not '"
        + name
        + "'";
  }
}
