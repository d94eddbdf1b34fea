package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.gen.ValueSpec;
import io.fusillade.record.SettingValues;
import io.fusillade.sql.SqlPlaceholders;
import io.fusillade.workload.YamlNode.Entry;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads the SQL sections of a workload: {@code connection}, {@code tables_schema}, {@code indexes}
 * and {@code queries}. Checks duplicate names, primary keys against the table's columns, index
 * columns against their table, and each query's parameters against the placeholders of its SQL.
 *
 * <p>Why one class of about 600 lines: one field reader per key of the SQL part of a workload
 * (connection, tables, columns, indexes, queries, transactions, limits), each short, all reporting
 * problems at their file:line into the same list; the values they build are records of their own.
 */
final class SqlParser extends FieldReader {

  private static final Set<String> CONNECTION_KEYS =
      keys("url", "urls", "replicas", "user", "password");
  private static final Set<String> TABLE_VENDOR_KEYS =
      keys("engine", "tier", "distribution_keys", "timeout");
  private static final Set<String> TABLE_KEYS =
      union(keys("name", "row_count", "columns", "primary_keys"), TABLE_VENDOR_KEYS);
  private static final Set<String> INDEX_VENDOR_KEYS = keys("type", "options", "timeout");
  private static final Set<String> INDEX_KEYS =
      union(keys("name", "unique", "table_name", "columns_names"), INDEX_VENDOR_KEYS);
  private static final Set<String> QUERY_VENDOR_KEYS = keys();
  // the standard workloads' keys: see tags(...) and transaction(...)
  private static final Set<String> QUERY_SET_KEYS = keys("tags", "transaction");
  private static final Set<String> QUERY_KEYS =
      union(
          union(keys("name", "sql", "params", "count", "timeout", "max_tries"), QUERY_VENDOR_KEYS),
          QUERY_SET_KEYS);
  private static final Set<String> GENERATED_COLUMN_KEYS =
      keys("name", "type", "generated", "precision", "scale");

  private final ValueParser values;

  SqlParser(FieldReader shared, ValueParser values) {
    super(shared);
    this.values = values;
  }

  /**
   * The SQL sections of a file; each list holds the valid entries only (the others are problems).
   *
   * @param connection the {@code connection} section, if given
   * @param tables the valid tables
   * @param indexes the valid indexes
   * @param queries the valid queries
   */
  record Sections(
      Optional<Connection> connection,
      List<Table> tables,
      List<Index> indexes,
      List<Query> queries) {}

  /** Reads the four SQL sections of the top-level mapping. */
  Sections read(MapNode top) {
    Optional<Connection> connection =
        Optional.ofNullable(field(top, "connection")).map(n -> connection(n, "connection"));
    // Every name in tables_schema, valid table or not: an index on a broken table is not also
    // reported as naming no table.
    Map<String, Location> tableNames = new LinkedHashMap<>();
    List<Table> tables = tables(top, tableNames);
    List<Index> indexes = indexes(top, tables, tableNames.keySet());
    return new Sections(connection, tables, indexes, queries(top));
  }

  private List<Table> tables(MapNode top, Map<String, Location> tableNames) {
    List<Table> tables = new ArrayList<>();
    eachMapping(
        top,
        "",
        "tables_schema",
        (m, path, i) -> {
          Table table = table(m, path);
          String tableName = string(m, path, "name", false);
          if (tableName != null) {
            firstUse(tableNames, tableName, field(m, "name"), path + ".name", "table");
          }
          if (table != null) {
            tables.add(table);
          }
        });
    return tables;
  }

  private List<Index> indexes(MapNode top, List<Table> tables, Set<String> tableNames) {
    List<Index> indexes = new ArrayList<>();
    eachMapping(
        top,
        "",
        "indexes",
        (m, path, i) ->
            Optional.ofNullable(index(m, path, tables, tableNames)).ifPresent(indexes::add));
    return indexes;
  }

  private List<Query> queries(MapNode top) {
    List<Query> queries = new ArrayList<>();
    Set<String> queryNames = new HashSet<>();
    eachMapping(
        top,
        "",
        "queries",
        (m, path, i) -> {
          Query query = query(m, path, i);
          if (query != null) {
            if (!queryNames.add(query.name())) {
              problem(
                  field(m, "name"), path + ".name", "duplicate query name '" + query.name() + "'");
            }
            queries.add(query);
          }
        });
    return queries;
  }

  private Connection connection(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    checkKeys(m, path, CONNECTION_KEYS);
    List<String> urls = new ArrayList<>();
    List<String> zones = new ArrayList<>();
    String url = secret(m, path, "url");
    if (url != null) {
      urls.add(url);
      zones.add("");
    }
    nodeList(m, path, "urls", urls, zones);
    if (urls.isEmpty() && field(m, "url") == null && field(m, "urls") == null) {
      problems.add(new Problem(m.location(), path, "a connection needs url or urls"));
    }
    List<String> replicas = new ArrayList<>();
    nodeList(m, path, "replicas", replicas, zones);
    String user = secret(m, path, "user");
    YamlNode passwordNode = field(m, "password");
    if (passwordNode instanceof Scalar s
        && !s.isNull()
        && !Interpolation.usesEnvironment(s.text())) {
      problem(
          passwordNode,
          path + ".password",
          "a password must not be written in the file; use ${env:NAME}");
      return null;
    }
    String password = secret(m, path, "password");
    return new Connection(
        urls,
        replicas,
        user,
        password,
        zones.stream().allMatch(String::isEmpty) ? List.of() : zones);
  }

  private Table table(MapNode m, String path) {
    int before = problems.size();
    checkKeys(m, path, TABLE_KEYS);
    String name = string(m, path, "name", true);
    Long rowCount = integer(m, path, "row_count", true);
    if (rowCount != null && rowCount < 0) {
      problem(field(m, "row_count"), join(path, "row_count"), "row_count must be >= 0");
      rowCount = null;
    }
    List<ValueSpec> columns = new ArrayList<>();
    Map<String, ValueSpec> byName = new LinkedHashMap<>();
    List<YamlNode> columnNodes = list(m, path, "columns");
    if (field(m, "columns") == null) {
      missing(m, path, "columns");
    } else if (columnNodes.isEmpty() && field(m, "columns") instanceof ListNode) {
      problem(field(m, "columns"), join(path, "columns"), "a table needs at least one column");
    }
    Map<String, Location> columnNames = new LinkedHashMap<>();
    List<GeneratedColumn> generated = new ArrayList<>();
    for (int i = 0; i < columnNodes.size(); i++) {
      String columnPath = join(path, "columns[" + i + "]");
      MapNode c = asMap(columnNodes.get(i), columnPath);
      if (c == null) {
        continue;
      }
      if (field(c, "generated") != null) {
        generatedColumn(c, columnPath, columnNames).ifPresent(generated::add);
        continue;
      }
      ValueSpec spec =
          values.value(c, columnPath, null, rowCount == null ? 0 : rowCount, "row_count");
      String columnName = string(c, columnPath, "name", false);
      if (columnName != null) {
        firstUse(columnNames, columnName, field(c, "name"), columnPath + ".name", "column");
      }
      if (spec != null) {
        columns.add(spec);
        byName.putIfAbsent(spec.name(), spec);
      }
    }
    List<String> primaryKeys = stringList(m, path, "primary_keys");
    YamlNode pkNode = field(m, "primary_keys");
    for (int i = 0; i < primaryKeys.size(); i++) {
      String key = primaryKeys.get(i);
      YamlNode at = pkNode instanceof ListNode l ? l.items().get(i) : pkNode;
      String pkPath =
          join(path, "primary_keys") + (pkNode instanceof ListNode ? "[" + i + "]" : "");
      if (!columnNames.containsKey(key)) {
        problem(
            at,
            pkPath,
            "primary key '"
                + key
                + "' is not a column of "
                + name
                + didYouMean(key, columnNames.keySet()));
        continue;
      }
      ValueSpec column = byName.get(key);
      if (generated.stream().anyMatch(g -> g.name().equals(key))) {
        problem(at, pkPath, "primary-key column '" + key + "' is generated; key a filled column");
      }
      if (column != null && !column.unique()) {
        problem(at, pkPath, "primary-key column '" + key + "' must be unique (add unique: true)");
      }
      if (column != null && column.nullPercentage() > 0) {
        problem(at, pkPath, "primary-key column '" + key + "' must not be nullable");
      }
    }
    if (problems.size() > before || name == null || rowCount == null) {
      return null;
    }
    return new Table(
        name, rowCount, columns, primaryKeys, vendorOptions(m, TABLE_VENDOR_KEYS), generated);
  }

  private Index index(MapNode m, String path, List<Table> tables, Set<String> tableNames) {
    int before = problems.size();
    checkKeys(m, path, INDEX_KEYS);
    String name = string(m, path, "name", true);
    String tableName = string(m, path, "table_name", true);
    Boolean unique = bool(m, path, "unique");
    List<String> columns = stringList(m, path, "columns_names");
    if (field(m, "columns_names") == null) {
      missing(m, path, "columns_names");
    }
    if (tableName != null && !tableNames.contains(tableName)) {
      problem(
          field(m, "table_name"),
          join(path, "table_name"),
          "no table '" + tableName + "' in tables_schema" + didYouMean(tableName, tableNames));
    }
    Optional<Table> table = tables.stream().filter(t -> t.name().equals(tableName)).findFirst();
    if (table.isPresent()) {
      Set<String> known =
          table.get().columns().stream()
              .map(ValueSpec::name)
              .collect(Collectors.toCollection(LinkedHashSet::new));
      table.get().generated().forEach(g -> known.add(g.name()));
      YamlNode columnsNode = field(m, "columns_names");
      for (int i = 0; i < columns.size(); i++) {
        if (!known.contains(columns.get(i))) {
          YamlNode at = columnsNode instanceof ListNode l ? l.items().get(i) : columnsNode;
          problem(
              at,
              join(path, "columns_names") + "[" + i + "]",
              "'"
                  + columns.get(i)
                  + "' is not a column of "
                  + tableName
                  + didYouMean(columns.get(i), known));
        }
      }
    }
    if (problems.size() > before || name == null || tableName == null) {
      return null;
    }
    return new Index(
        name, tableName, columns, unique != null && unique, vendorOptions(m, INDEX_VENDOR_KEYS));
  }

  private Query query(MapNode m, String path, int position) {
    if (field(m, "transaction") != null) {
      return transaction(m, path, position);
    }
    int before = problems.size();
    checkKeys(m, path, QUERY_KEYS);
    QueryLimits limits = queryLimits(m, path);
    List<String> tags = tags(m, path);
    String name = string(m, path, "name", false);
    String sql = string(m, path, "sql", true);
    int times = count(m, path);
    List<YamlNode> paramNodes = list(m, path, "params");
    List<ValueSpec> params = params(paramNodes, path, times);
    if (sql != null) {
      SqlPlaceholders placeholders = SqlPlaceholders.of(sql);
      YamlNode at = field(m, "params") != null ? field(m, "params") : field(m, "sql");
      String atPath = join(path, field(m, "params") != null ? "params" : "sql");
      if (placeholders.mixed()) {
        problem(field(m, "sql"), join(path, "sql"), "the SQL mixes $n and ? placeholders");
      } else if (placeholders.count() != paramNodes.size()) {
        String style =
            placeholders.highestNumbered() > 0
                ? placeholders.highestNumbered() == 1
                    ? " ($1)"
                    : " ($1..$" + placeholders.highestNumbered() + ")"
                : placeholders.positional() > 0 ? " (?)" : "";
        problem(
            at,
            atPath,
            "the SQL has "
                + placeholders.count()
                + " placeholder"
                + (placeholders.count() == 1 ? "" : "s")
                + style
                + " but "
                + paramNodes.size()
                + " param"
                + (paramNodes.size() == 1 ? " is" : "s are")
                + " given");
      }
    }
    if (problems.size() > before || sql == null) {
      return null;
    }
    String queryName = name != null ? name : "query" + (position + 1);
    return new Query(
        queryName,
        sql,
        params,
        times,
        vendorOptions(m, QUERY_VENDOR_KEYS),
        field(m, "sql").location(),
        limits,
        List.of(),
        tags);
  }

  /**
   * A query that is a transaction: {@code transaction:} lists its statements, run in order and
   * committed together, which share the query's {@code params}, each statement taking the values
   * its {@code $n} placeholders name ({@code ?} would be ambiguous there). Every parameter must be
   * used by some statement, and none beyond them named.
   */
  private Query transaction(MapNode m, String path, int position) {
    int before = problems.size();
    checkKeys(m, path, QUERY_KEYS);
    List<String> tags = tags(m, path);
    String name = string(m, path, "name", false);
    if (field(m, "sql") != null) {
      problem(
          field(m, "sql"),
          join(path, "sql"),
          "give sql or transaction, not both: a transaction lists every statement");
    }
    int times = count(m, path);
    List<YamlNode> paramNodes = list(m, path, "params");
    List<ValueSpec> params = params(paramNodes, path, times);
    YamlNode statementsNode = field(m, "transaction");
    List<YamlNode> statementNodes = list(m, path, "transaction");
    if (statementsNode instanceof ListNode && statementNodes.isEmpty()) {
      problem(statementsNode, join(path, "transaction"), "a transaction needs a statement");
    }
    List<String> statements = new ArrayList<>();
    boolean[] used = new boolean[paramNodes.size()];
    for (int i = 0; i < statementNodes.size(); i++) {
      String statementPath = join(path, "transaction[" + i + "]");
      YamlNode node = statementNodes.get(i);
      String sql = scalarString(node, statementPath);
      if (sql == null) {
        continue;
      }
      if (sql.isBlank()) {
        problem(node, statementPath, "an empty statement");
        continue;
      }
      SqlPlaceholders placeholders = SqlPlaceholders.of(sql);
      if (placeholders.positional() > 0) {
        problem(
            node,
            statementPath,
            "a transaction's statements take $n placeholders, which number the query's params;"
                + " not ?");
        continue;
      }
      if (placeholders.highestNumbered() > paramNodes.size()) {
        problem(
            node,
            statementPath,
            "$"
                + placeholders.highestNumbered()
                + " but the query has "
                + paramNodes.size()
                + " param"
                + (paramNodes.size() == 1 ? "" : "s"));
        continue;
      }
      SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(sql);
      for (int index : jdbc.order()) {
        used[index] = true;
      }
      statements.add(sql);
    }
    for (int i = 0; i < used.length; i++) {
      if (!used[i] && problems.size() == before) {
        problem(
            paramNodes.get(i),
            join(path, "params[" + i + "]"),
            "no statement of the transaction uses $" + (i + 1));
      }
    }
    if (problems.size() > before || statements.isEmpty()) {
      return null;
    }
    return new Query(
        name != null ? name : "query" + (position + 1),
        statements.get(0),
        params,
        times,
        vendorOptions(m, QUERY_VENDOR_KEYS),
        statementsNode.location(),
        queryLimits(m, path),
        statements,
        tags);
  }

  /** A query's {@code count}: how many times the queue holds it (1 when not given or wrong). */
  private int count(MapNode m, String path) {
    Long count = integer(m, path, "count", false);
    if (count != null && (count < 0 || count > Integer.MAX_VALUE)) {
      problem(field(m, "count"), join(path, "count"), "count must be in [0, 2147483647]");
      count = null;
    }
    return count == null ? 1 : count.intValue();
  }

  /** A query's valid {@code params}, in order (the others are problems). */
  private List<ValueSpec> params(List<YamlNode> paramNodes, String path, int times) {
    List<ValueSpec> params = new ArrayList<>();
    for (int i = 0; i < paramNodes.size(); i++) {
      String paramPath = join(path, "params[" + i + "]");
      MapNode p = asMap(paramNodes.get(i), paramPath);
      if (p != null) {
        ValueSpec spec = values.parameter(p, paramPath, "p" + (i + 1), times);
        if (spec != null) {
          params.add(spec);
        }
      }
    }
    return params;
  }

  /**
   * A query's {@code tags}: names ({@code lite}, {@code full}...) of letters, digits, {@code -} and
   * {@code _}, by which {@code --queries} selects a set.
   */
  private List<String> tags(MapNode m, String path) {
    List<String> tags = stringList(m, path, "tags");
    YamlNode node = field(m, "tags");
    for (int i = 0; i < tags.size(); i++) {
      if (!tags.get(i).matches("[A-Za-z0-9_-]+")) {
        problem(
            node instanceof ListNode l ? l.items().get(i) : node,
            join(path, "tags") + (node instanceof ListNode ? "[" + i + "]" : ""),
            "a tag is letters, digits, - and _, got '" + tags.get(i) + "'");
      }
    }
    return tags;
  }

  /**
   * A column the database computes ({@code generated: SQL}): its name, its type (and decimal
   * precision and scale), nothing the generator would fill.
   */
  private Optional<GeneratedColumn> generatedColumn(
      MapNode c, String path, Map<String, Location> columnNames) {
    int before = problems.size();
    checkKeys(c, path, GENERATED_COLUMN_KEYS);
    String name = string(c, path, "name", true);
    if (name != null) {
      firstUse(columnNames, name, field(c, "name"), path + ".name", "column");
    }
    io.fusillade.gen.ValueType type =
        enumField(
            c,
            path,
            "type",
            true,
            io.fusillade.gen.ValueType::parse,
            java.util.Arrays.stream(io.fusillade.gen.ValueType.values())
                .map(io.fusillade.gen.ValueType::label)
                .toList());
    String expression = string(c, path, "generated", true);
    if (expression != null && expression.isBlank()) {
      problem(field(c, "generated"), join(path, "generated"), "an empty expression");
    }
    Long precision = bounded(c, path, "precision", 1, 18);
    Long scale = bounded(c, path, "scale", 0, 18);
    if (problems.size() > before || name == null || type == null || expression == null) {
      return Optional.empty();
    }
    ValueSpec.Builder spec = ValueSpec.builder(name, type);
    if (type == io.fusillade.gen.ValueType.CHOICE) {
      spec.choices(List.of(""), List.of());
    }
    int p = precision == null ? ValueSpec.DEFAULT_PRECISION : precision.intValue();
    int s = scale == null ? ValueSpec.DEFAULT_SCALE : scale.intValue();
    if (s > p) {
      problem(
          field(c, "scale"), join(path, "scale"), "scale must be in [0, precision = " + p + "]");
      return Optional.empty();
    }
    spec.decimal(p, s);
    return Optional.of(new GeneratedColumn(spec.build(), expression.strip()));
  }

  // ------------------------------------------------ query timeouts and tries, node zones

  /**
   * A query's {@code timeout} (a duration such as {@code 90s}, {@code 10m}, {@code 500ms}, or a
   * number of seconds, as Picostress writes it: {@code 3.0}) and {@code max_tries} (at least 1).
   */
  private QueryLimits queryLimits(MapNode m, String path) {
    Duration timeout = null;
    YamlNode node = field(m, "timeout");
    if (node instanceof Scalar s && !s.isNull()) {
      String text = s.text().strip();
      try {
        timeout =
            s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_NUMBER_FLOAT
                ? Duration.ofMillis(Math.round(Double.parseDouble(text) * 1000))
                : SettingValues.parseDuration(text);
        if (timeout.isZero() || timeout.isNegative()) {
          problem(node, join(path, "timeout"), "timeout must be > 0, got " + text);
          timeout = null;
        }
      } catch (IllegalArgumentException e) {
        problem(
            node,
            join(path, "timeout"),
            "expected a duration such as 90s, 10m or 500ms (or seconds: 3.5), got " + text);
      }
    } else if (node != null && !(node instanceof Scalar)) {
      problem(
          node, join(path, "timeout"), "expected a duration such as 90s, got " + node.describe());
    }
    Long tries = bounded(m, path, "max_tries", 1, 1_000_000);
    return new QueryLimits(timeout, tries == null ? 0 : tries.intValue());
  }

  /**
   * The nodes of a list of URLs: each a URL, or a mapping {@code {url: ..., zone: eu-1}}; the URLs
   * (with {@code ${env:NAME}} replaced) go to {@code urls}, their zones ("" for none) to {@code
   * zones}.
   */
  private void nodeList(MapNode m, String path, String key, List<String> urls, List<String> zones) {
    List<YamlNode> nodes = list(m, path, key);
    for (int i = 0; i < nodes.size(); i++) {
      String itemPath = path + "." + key + "[" + i + "]";
      YamlNode item = nodes.get(i);
      if (item instanceof MapNode node) {
        checkKeys(node, itemPath, NODE_KEYS);
        String url = secret(node, itemPath, "url");
        if (field(node, "url") == null) {
          missing(node, itemPath, "url");
        }
        String zone = string(node, itemPath, "zone", false);
        if (url != null) {
          urls.add(url);
          zones.add(zone == null ? "" : zone.strip());
        }
        continue;
      }
      String raw = scalarString(item, itemPath);
      if (raw != null) {
        Interpolation.apply(raw, environment, problems, item.location(), itemPath)
            .ifPresent(
                url -> {
                  urls.add(url);
                  zones.add("");
                });
      }
    }
  }

  private static final Set<String> NODE_KEYS = keys("url", "zone");

  /** The entries of {@code m} whose keys are vendor options, as plain values, in file order. */
  private static Map<String, Object> vendorOptions(MapNode m, Set<String> vendorKeys) {
    Map<String, Object> options = new LinkedHashMap<>();
    for (Entry e : m.entries()) {
      if (vendorKeys.contains(e.key())) {
        options.put(e.key(), plain(e.value()));
      }
    }
    return options;
  }
}
