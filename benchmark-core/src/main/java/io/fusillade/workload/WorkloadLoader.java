package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.gen.Alphabet;
import io.fusillade.gen.Distribution;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.gen.Vocabulary;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSearches;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.workload.YamlNode.Entry;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads and validates a workload file: the Picostress format, unchanged, plus Fusillade's
 * extensions (see {@code src/site/workloads.md}).
 *
 * <p>Validation runs to the end and reports every problem with file, line, column and field path:
 * syntax errors, wrong YAML types, unknown keys (with a "did you mean"), unknown types and
 * distributions, bounds in the wrong order or outside the type, unique ranges smaller than the
 * number of rows, normal ranges whose sum overflows, primary keys that are not unique columns,
 * parameter lists that do not match the SQL's placeholders, and unset environment variables.
 *
 * <pre>{@code
 * Workload workload = WorkloadLoader.load(Path.of("cars.yml")).orThrow();
 * }</pre>
 */
public final class WorkloadLoader {

  private static final Set<String> TOP_KEYS =
      keys(
          "config_name",
          "seed",
          "connection",
          "tables_schema",
          "indexes",
          "queries",
          "logs",
          "kafka",
          "topics");
  private static final Set<String> KAFKA_KEYS = keys("bootstrap_servers", "properties");
  private static final Set<String> TOPIC_KEYS =
      keys(
          "name",
          "partitions",
          "replication",
          "create",
          "configs",
          "consumers",
          "group",
          "message_size",
          "key",
          "producer",
          "consumer",
          "rate",
          "steps",
          "duration");
  private static final Set<String> STEP_KEYS = keys("start", "increment", "count", "duration");
  private static final long MAX_MESSAGE_SIZE = 64L * 1024 * 1024;
  private static final Set<String> CONNECTION_KEYS = keys("url", "urls", "user", "password");
  private static final Set<String> LOGS_KEYS =
      keys(
          "urls",
          "user",
          "password",
          "api_key",
          "profile",
          "index",
          "mapping",
          "shards",
          "replicas",
          "bulk_size",
          "gzip",
          "concurrency",
          "docs",
          "rate",
          "duration",
          "steps",
          "step_duration",
          "time_to_searchable",
          "searches");
  private static final Set<String> SEARCH_KEYS =
      keys("name", "concurrency", "duration", "iterations");
  private static final Set<String> TABLE_VENDOR_KEYS =
      keys("engine", "tier", "distribution_keys", "timeout");
  private static final Set<String> TABLE_KEYS =
      union(keys("name", "row_count", "columns", "primary_keys"), TABLE_VENDOR_KEYS);
  private static final Set<String> INDEX_VENDOR_KEYS = keys("type", "options", "timeout");
  private static final Set<String> INDEX_KEYS =
      union(keys("name", "unique", "table_name", "columns_names"), INDEX_VENDOR_KEYS);
  private static final Set<String> QUERY_VENDOR_KEYS = keys("timeout");
  private static final Set<String> QUERY_KEYS =
      union(keys("name", "sql", "params", "count"), QUERY_VENDOR_KEYS);
  private static final Set<String> VALUE_KEYS =
      keys(
          "name",
          "type",
          "distribution",
          "distribution_param",
          "range",
          "alphabet",
          "length",
          "is_nullable",
          "null_percentage",
          "unique",
          "value",
          "values",
          "weights",
          "precision",
          "scale",
          "probability");

  private final String file;
  private final Function<String, String> environment;
  private final List<Problem> problems = new ArrayList<>();

  private WorkloadLoader(String file, Function<String, String> environment) {
    this.file = file;
    this.environment = environment;
  }

  /**
   * Loads a file, taking {@code ${env:NAME}} values from the process environment.
   *
   * @param path the workload file
   * @return the workload or its problems; an unreadable file is a problem too
   */
  public static LoadResult load(Path path) {
    return load(path, System::getenv);
  }

  /**
   * @param path the workload file
   * @param environment the lookup of environment variables (null for unset)
   * @return the workload or its problems
   */
  public static LoadResult load(Path path, Function<String, String> environment) {
    String name = path.toString();
    String text;
    try {
      byte[] bytes = Files.readAllBytes(path);
      text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return failure(name, "not valid YAML: the file is not UTF-8 text");
    } catch (IOException e) {
      return failure(name, "cannot read the file: " + e.getClass().getSimpleName());
    }
    return parse(name, text, environment);
  }

  /**
   * @param fileName the name to use in messages
   * @param text the YAML text
   * @param environment the lookup of environment variables (null for unset)
   * @return the workload or its problems
   */
  public static LoadResult parse(
      String fileName, String text, Function<String, String> environment) {
    return new WorkloadLoader(fileName, environment).run(text);
  }

  private static LoadResult failure(String file, String message) {
    return new LoadResult(
        Optional.empty(), List.of(new Problem(new Location(file, 1, 1), "", message)));
  }

  private LoadResult run(String text) {
    if (text.indexOf('\0') >= 0) {
      problems.add(new Problem(new Location(file, 1, 1), "", "not valid YAML: binary content"));
      return result(null);
    }
    Optional<YamlNode> root = new YamlReader(file, problems).read(text);
    if (root.isEmpty()) {
      return result(null);
    }
    if (!(root.get() instanceof MapNode top)) {
      problems.add(
          new Problem(
              root.get().location(),
              "",
              "a workload must be a YAML mapping (config_name, tables_schema, indexes, queries),"
                  + " got "
                  + root.get().describe()));
      return result(null);
    }
    return result(workload(top));
  }

  private LoadResult result(Workload workload) {
    List<Problem> sorted = new ArrayList<>(problems);
    sorted.sort(
        Comparator.comparingInt((Problem p) -> p.location().line())
            .thenComparingInt(p -> p.location().column()));
    return new LoadResult(
        sorted.isEmpty() ? Optional.ofNullable(workload) : Optional.empty(), sorted);
  }

  // ---------------------------------------------------------------- sections

  private Workload workload(MapNode top) {
    checkKeys(top, "", TOP_KEYS);
    String name = string(top, "", "config_name", false);
    Long seed = integer(top, "", "seed", false);
    Optional<Connection> connection =
        Optional.ofNullable(field(top, "connection")).map(n -> connection(n, "connection"));

    List<Table> tables = new ArrayList<>();
    Map<String, Location> tableNames = new LinkedHashMap<>();
    List<YamlNode> tableNodes = list(top, "", "tables_schema");
    for (int i = 0; i < tableNodes.size(); i++) {
      String path = "tables_schema[" + i + "]";
      MapNode m = asMap(tableNodes.get(i), path);
      if (m != null) {
        Table table = table(m, path);
        String tableName = string(m, path, "name", false);
        if (tableName != null) {
          Location first = tableNames.putIfAbsent(tableName, field(m, "name").location());
          if (first != null) {
            problem(
                field(m, "name"),
                path + ".name",
                "duplicate table '" + tableName + "' (first at line " + first.line() + ")");
          }
        }
        if (table != null) {
          tables.add(table);
        }
      }
    }

    List<Index> indexes = new ArrayList<>();
    List<YamlNode> indexNodes = list(top, "", "indexes");
    for (int i = 0; i < indexNodes.size(); i++) {
      String path = "indexes[" + i + "]";
      MapNode m = asMap(indexNodes.get(i), path);
      if (m != null) {
        Index index = index(m, path, tables, tableNames.keySet());
        if (index != null) {
          indexes.add(index);
        }
      }
    }

    List<Query> queries = new ArrayList<>();
    Set<String> queryNames = new HashSet<>();
    List<YamlNode> queryNodes = list(top, "", "queries");
    for (int i = 0; i < queryNodes.size(); i++) {
      String path = "queries[" + i + "]";
      MapNode m = asMap(queryNodes.get(i), path);
      if (m != null) {
        Query query = query(m, path, i);
        if (query != null) {
          if (!queryNames.add(query.name())) {
            problem(
                field(m, "name"), path + ".name", "duplicate query name '" + query.name() + "'");
          }
          queries.add(query);
        }
      }
    }

    Optional<LogsSection> logs = Optional.ofNullable(field(top, "logs")).map(n -> logs(n, "logs"));
    Optional<KafkaConnection> kafka =
        Optional.ofNullable(field(top, "kafka")).map(n -> kafka(n, "kafka"));
    List<TopicWorkload> topics = new ArrayList<>();
    Map<String, Location> topicNames = new LinkedHashMap<>();
    List<YamlNode> topicNodes = list(top, "", "topics");
    for (int i = 0; i < topicNodes.size(); i++) {
      String path = "topics[" + i + "]";
      MapNode m = asMap(topicNodes.get(i), path);
      if (m != null) {
        TopicWorkload topic = topic(m, path);
        if (field(m, "name") instanceof Scalar n && !n.isNull()) {
          Location first = topicNames.putIfAbsent(n.text(), n.location());
          if (first != null) {
            problem(
                n,
                path + ".name",
                "duplicate topic '" + n.text() + "' (first at line " + first.line() + ")");
          }
        }
        if (topic != null) {
          topics.add(topic);
        }
      }
    }

    if (problems.isEmpty()
        && field(top, "tables_schema") == null
        && field(top, "queries") == null
        && field(top, "logs") == null
        && field(top, "topics") == null) {
      problems.add(
          new Problem(
              top.location(),
              "",
              "nothing to do: the file has neither tables_schema, queries, logs nor topics"));
    }
    String configName = name != null ? name : defaultName();
    return new Workload(
        file,
        configName,
        seed == null ? OptionalLong.empty() : OptionalLong.of(seed),
        connection,
        tables,
        indexes,
        queries,
        logs,
        kafka,
        topics);
  }

  private String defaultName() {
    String base = Path.of(file).getFileName().toString();
    int dot = base.lastIndexOf('.');
    return dot > 0 ? base.substring(0, dot) : base;
  }

  private Connection connection(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    checkKeys(m, path, CONNECTION_KEYS);
    List<String> urls = new ArrayList<>();
    String url = secret(m, path, "url");
    if (url != null) {
      urls.add(url);
    }
    List<YamlNode> urlNodes = list(m, path, "urls");
    for (int i = 0; i < urlNodes.size(); i++) {
      String itemPath = path + ".urls[" + i + "]";
      String raw = scalarString(urlNodes.get(i), itemPath);
      if (raw != null) {
        Interpolation.apply(raw, environment, problems, urlNodes.get(i).location(), itemPath)
            .ifPresent(urls::add);
      }
    }
    if (urls.isEmpty() && field(m, "url") == null && field(m, "urls") == null) {
      problems.add(new Problem(m.location(), path, "a connection needs url or urls"));
    }
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
    return new Connection(urls, user, password);
  }

  // ---------------------------------------------------------------- topics

  private KafkaConnection kafka(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    checkKeys(m, path, KAFKA_KEYS);
    String bootstrap = secret(m, path, "bootstrap_servers");
    Map<String, String> properties = properties(m, path, "properties");
    return new KafkaConnection(bootstrap, properties);
  }

  /**
   * A mapping of client or topic properties; values are text, numbers or booleans. Values of
   * secret-looking keys (password, jaas, secret) must come from {@code ${env:NAME}}.
   */
  private Map<String, String> properties(MapNode parent, String parentPath, String key) {
    Map<String, String> out = new LinkedHashMap<>();
    YamlNode node = field(parent, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return out;
    }
    String path = join(parentPath, key);
    MapNode m = asMap(node, path);
    if (m == null) {
      return out;
    }
    for (Entry e : m.entries()) {
      String itemPath = path + "." + e.key();
      if (!(e.value() instanceof Scalar s) || s.isNull()) {
        problem(e.value(), itemPath, "expected a value, got " + e.value().describe());
        continue;
      }
      String lower = e.key().toLowerCase(java.util.Locale.ROOT);
      boolean secret =
          lower.contains("password") || lower.contains("jaas") || lower.contains("secret");
      if (secret && !Interpolation.usesEnvironment(s.text())) {
        problem(e.value(), itemPath, "a secret must not be written in the file; use ${env:NAME}");
        continue;
      }
      Interpolation.apply(s.text(), environment, problems, s.location(), itemPath)
          .ifPresent(v -> out.put(e.key(), v));
    }
    return out;
  }

  private TopicWorkload topic(MapNode m, String path) {
    int before = problems.size();
    checkKeys(m, path, TOPIC_KEYS);
    String name = string(m, path, "name", true);
    long partitions = positive(m, path, "partitions", 1, 1);
    long replication = positive(m, path, "replication", 1, 1);
    if (replication > Short.MAX_VALUE) {
      problem(field(m, "replication"), join(path, "replication"), "replication is too large");
    }
    long consumers = positive(m, path, "consumers", 1, 0);
    Boolean create = bool(m, path, "create");
    String group = string(m, path, "group", false);
    Map<String, String> configs = properties(m, path, "configs");
    Map<String, String> producer = properties(m, path, "producer");
    Map<String, String> consumer = properties(m, path, "consumer");
    ValueSpec size = messageSize(m, path);
    Optional<ValueSpec> key = Optional.empty();
    YamlNode keyNode = field(m, "key");
    if (keyNode != null) {
      MapNode k = asMap(keyNode, join(path, "key"));
      if (k != null) {
        key = Optional.ofNullable(value(k, join(path, "key"), "key", 0, "count"));
      }
    }
    Double rate = number(m, path, "rate");
    if (rate != null && !(rate > 0 && !rate.isInfinite())) {
      problem(field(m, "rate"), join(path, "rate"), "rate must be > 0 messages per second");
    }
    TopicWorkload.Steps steps = null;
    YamlNode stepsNode = field(m, "steps");
    if (stepsNode != null) {
      steps = steps(stepsNode, join(path, "steps"));
    }
    if (rate != null && stepsNode != null) {
      problem(stepsNode, join(path, "steps"), "give rate or steps, not both");
    } else if (rate == null && stepsNode == null) {
      problems.add(
          new Problem(m.location(), path, "a topic needs rate (messages per second) or steps"));
    }
    java.time.Duration duration = duration(m, path, "duration", java.time.Duration.ofSeconds(60));
    if (problems.size() > before || name == null) {
      return null;
    }
    return new TopicWorkload(
        name,
        (int) partitions,
        (int) replication,
        create == null || create,
        configs,
        (int) consumers,
        group,
        size,
        key,
        producer,
        consumer,
        rate,
        steps,
        duration);
  }

  /** A whole number field with a default and a lower bound. */
  private long positive(MapNode m, String path, String key, long defaultValue, long min) {
    Long value = integer(m, path, key, false);
    if (value == null) {
      return defaultValue;
    }
    if (value < min || value > Integer.MAX_VALUE) {
      problem(field(m, key), join(path, key), key + " must be in [" + min + ", 2147483647]");
      return defaultValue;
    }
    return value;
  }

  private ValueSpec messageSize(MapNode m, String path) {
    YamlNode node = field(m, "message_size");
    String sizePath = join(path, "message_size");
    if (node == null) {
      return ValueSpec.builder("message_size", ValueType.INTEGER).range(1024L, 1024L).build();
    }
    if (node instanceof Scalar) {
      Long size = integerOf(node, sizePath);
      if (size == null) {
        return null;
      }
      if (size < 0 || size > MAX_MESSAGE_SIZE) {
        problem(node, sizePath, "message_size must be in [0, " + MAX_MESSAGE_SIZE + "] bytes");
        return null;
      }
      return ValueSpec.builder("message_size", ValueType.INTEGER).range(size, size).build();
    }
    MapNode spec = asMap(node, sizePath);
    if (spec == null) {
      return null;
    }
    ValueSpec size = value(spec, sizePath, "message_size", 0, "count");
    if (size == null) {
      return null;
    }
    if (size.type() != ValueType.INTEGER && size.type() != ValueType.LONG) {
      problem(node, sizePath, "message sizes come from an integer or long spec");
      return null;
    }
    if (size.lower() == null) {
      problem(node, sizePath, "message sizes need a range, such as [100, 2000]");
      return null;
    }
    if (((Number) size.lower()).longValue() < 0
        || ((Number) size.upper()).longValue() > MAX_MESSAGE_SIZE) {
      problem(
          field(spec, "range"),
          join(sizePath, "range"),
          "message sizes must be in [0, " + MAX_MESSAGE_SIZE + "] bytes");
      return null;
    }
    if (size.nullPercentage() > 0) {
      problem(node, sizePath, "message sizes cannot be null");
      return null;
    }
    return size;
  }

  private TopicWorkload.Steps steps(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    int before = problems.size();
    checkKeys(m, path, STEP_KEYS);
    Double start = number(m, path, "start");
    Double increment = number(m, path, "increment");
    Long count = integer(m, path, "count", true);
    if (start == null && field(m, "start") == null) {
      problems.add(new Problem(m.location(), join(path, "start"), "missing required field"));
    } else if (start != null && !(start > 0)) {
      problem(field(m, "start"), join(path, "start"), "start must be > 0 messages per second");
    }
    if (increment != null && increment < 0) {
      problem(field(m, "increment"), join(path, "increment"), "increment must be >= 0");
    }
    if (count != null && (count < 1 || count > 1000)) {
      problem(field(m, "count"), join(path, "count"), "count must be in [1, 1000]");
    }
    java.time.Duration duration = duration(m, path, "duration", null);
    if (field(m, "duration") == null) {
      problems.add(new Problem(m.location(), join(path, "duration"), "missing required field"));
    }
    if (problems.size() > before) {
      return null;
    }
    return new TopicWorkload.Steps(
        start, increment == null ? start : increment, count.intValue(), duration);
  }

  /** A duration: whole seconds, or text such as 30s, 500ms, 2m, 1h. */
  private java.time.Duration duration(
      MapNode m, String path, String key, java.time.Duration defaultValue) {
    YamlNode node = field(m, key);
    if (node == null) {
      return defaultValue;
    }
    String durationPath = join(path, key);
    if (node instanceof Scalar s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      Long seconds = integerOf(node, durationPath);
      if (seconds != null && seconds > 0) {
        return java.time.Duration.ofSeconds(seconds);
      }
    } else if (node instanceof Scalar s && !s.isNull()) {
      java.util.regex.Matcher matcher =
          java.util.regex.Pattern.compile("(\\d+)\\s*(ms|s|m|h)").matcher(s.text().strip());
      if (matcher.matches()) {
        long amount = Long.parseLong(matcher.group(1));
        java.time.Duration d =
            switch (matcher.group(2)) {
              case "ms" -> java.time.Duration.ofMillis(amount);
              case "s" -> java.time.Duration.ofSeconds(amount);
              case "m" -> java.time.Duration.ofMinutes(amount);
              default -> java.time.Duration.ofHours(amount);
            };
        if (!d.isZero()) {
          return d;
        }
      }
    }
    problem(
        node,
        durationPath,
        "expected a duration > 0 such as 60, 30s, 500ms, 2m or 1h, got " + node.describe());
    return defaultValue;
  }

  private String secret(MapNode m, String path, String key) {
    String raw = string(m, path, key, false);
    if (raw == null) {
      return null;
    }
    return Interpolation.apply(
            raw, environment, problems, field(m, key).location(), join(path, key))
        .orElse(null);
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
      problems.add(new Problem(m.location(), join(path, "columns"), "missing required field"));
    } else if (columnNodes.isEmpty() && field(m, "columns") instanceof ListNode) {
      problem(field(m, "columns"), join(path, "columns"), "a table needs at least one column");
    }
    Map<String, Location> columnNames = new LinkedHashMap<>();
    for (int i = 0; i < columnNodes.size(); i++) {
      String columnPath = join(path, "columns[" + i + "]");
      MapNode c = asMap(columnNodes.get(i), columnPath);
      if (c == null) {
        continue;
      }
      ValueSpec spec = value(c, columnPath, null, rowCount == null ? 0 : rowCount, "row_count");
      String columnName = string(c, columnPath, "name", false);
      if (columnName != null) {
        Location first = columnNames.putIfAbsent(columnName, field(c, "name").location());
        if (first != null) {
          problem(
              field(c, "name"),
              columnPath + ".name",
              "duplicate column '" + columnName + "' (first at line " + first.line() + ")");
        }
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
                + suggestion(key, columnNames.keySet()));
        continue;
      }
      ValueSpec column = byName.get(key);
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
    return new Table(name, rowCount, columns, primaryKeys, vendorOptions(m, TABLE_VENDOR_KEYS));
  }

  private Index index(MapNode m, String path, List<Table> tables, Set<String> tableNames) {
    int before = problems.size();
    checkKeys(m, path, INDEX_KEYS);
    String name = string(m, path, "name", true);
    String tableName = string(m, path, "table_name", true);
    Boolean unique = bool(m, path, "unique");
    List<String> columns = stringList(m, path, "columns_names");
    if (field(m, "columns_names") == null) {
      problems.add(
          new Problem(m.location(), join(path, "columns_names"), "missing required field"));
    }
    if (tableName != null && !tableNames.contains(tableName)) {
      problem(
          field(m, "table_name"),
          join(path, "table_name"),
          "no table '" + tableName + "' in tables_schema" + suggestion(tableName, tableNames));
    }
    Optional<Table> table = tables.stream().filter(t -> t.name().equals(tableName)).findFirst();
    if (table.isPresent()) {
      Set<String> known =
          table.get().columns().stream()
              .map(ValueSpec::name)
              .collect(Collectors.toCollection(LinkedHashSet::new));
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
                  + suggestion(columns.get(i), known));
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
    int before = problems.size();
    checkKeys(m, path, QUERY_KEYS);
    String name = string(m, path, "name", false);
    String sql = string(m, path, "sql", true);
    Long count = integer(m, path, "count", false);
    if (count != null && (count < 0 || count > Integer.MAX_VALUE)) {
      problem(field(m, "count"), join(path, "count"), "count must be in [0, 2147483647]");
      count = null;
    }
    int times = count == null ? 1 : count.intValue();
    List<ValueSpec> params = new ArrayList<>();
    List<YamlNode> paramNodes = list(m, path, "params");
    for (int i = 0; i < paramNodes.size(); i++) {
      String paramPath = join(path, "params[" + i + "]");
      MapNode p = asMap(paramNodes.get(i), paramPath);
      if (p != null) {
        ValueSpec spec = value(p, paramPath, "p" + (i + 1), times, "count");
        if (spec != null) {
          params.add(spec);
        }
      }
    }
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
    return new Query(queryName, sql, params, times, vendorOptions(m, QUERY_VENDOR_KEYS));
  }

  // ---------------------------------------------------------------- values

  /**
   * Reads a column or a query parameter.
   *
   * @param defaultName the name when none is given (parameters), or null if the name is required
   * @param needed how many values the unique rule must allow (rows or query count)
   * @param neededLabel the field that sets {@code needed}, for messages
   */
  private ValueSpec value(
      MapNode m, String path, String defaultName, long needed, String neededLabel) {
    int before = problems.size();
    checkKeys(m, path, VALUE_KEYS);
    String name = string(m, path, "name", defaultName == null);
    if (name == null) {
      name = defaultName;
    }
    ValueType type = enumField(m, path, "type", true, ValueType::parse, typeNames());
    Distribution.Kind kind =
        Optional.ofNullable(
                enumField(
                    m, path, "distribution", false, Distribution.Kind::parse, distributionNames()))
            .orElse(Distribution.Kind.UNIFORM);
    Double parameter = number(m, path, "distribution_param");
    Distribution distribution = Distribution.uniform();
    if (parameter != null) {
      if (!kind.hasParameter()) {
        problem(
            field(m, "distribution_param"),
            join(path, "distribution_param"),
            kind.label() + " takes no distribution_param");
      } else if (!(parameter > 0) || parameter.isInfinite()) {
        problem(
            field(m, "distribution_param"),
            join(path, "distribution_param"),
            kind.label()
                + " "
                + (kind == Distribution.Kind.ZIPF ? "exponent" : "parameter")
                + " must be > 0, got "
                + parameter);
      }
    }
    if (problems.size() == before) {
      distribution = new Distribution(kind, parameter == null ? Double.NaN : parameter);
    }

    Boolean nullable = bool(m, path, "is_nullable");
    Double nullPercentage = number(m, path, "null_percentage");
    if (nullPercentage != null && !(nullPercentage >= 0 && nullPercentage <= 100)) {
      problem(
          field(m, "null_percentage"),
          join(path, "null_percentage"),
          "null_percentage must be in [0, 100], got " + fmt(nullPercentage));
    } else if (nullPercentage != null && nullPercentage > 0 && !Boolean.TRUE.equals(nullable)) {
      problem(
          field(m, "null_percentage"),
          join(path, "null_percentage"),
          "null_percentage is " + fmt(nullPercentage) + " but is_nullable is not true");
    }
    Boolean unique = bool(m, path, "unique");

    ValueSpec.Builder builder =
        type == null ? null : ValueSpec.builder(name == null ? "?" : name, type);
    if (builder != null) {
      builder
          .distribution(distribution)
          .nullPercentage(nullPercentage == null ? 0 : nullPercentage)
          .unique(unique != null && unique);
      typeOptions(m, path, type, builder);
      if (type == ValueType.DOUBLE && !distribution.isContinuous()) {
        problem(
            field(m, "distribution"),
            join(path, "distribution"),
            kind.label() + " needs a discrete type; double is continuous");
      }
      if (Boolean.TRUE.equals(unique) && (type == ValueType.DOUBLE || type == ValueType.BOOLEAN)) {
        problem(
            field(m, "unique"),
            join(path, "unique"),
            "unique is not supported for " + type.label());
      }
    }
    if (problems.size() > before || builder == null) {
      return null;
    }
    ValueSpec spec;
    try {
      spec = builder.build();
    } catch (IllegalArgumentException e) {
      problems.add(new Problem(m.location(), path, e.getMessage()));
      return null;
    }
    if (spec.unique() && spec.distinctValues() < needed) {
      YamlNode at = field(m, "range") != null ? field(m, "range") : field(m, "unique");
      String what =
          field(m, "range") != null ? "unique range" : "unique " + type.label() + " column";
      problem(
          at,
          join(path, field(m, "range") != null ? "range" : "unique"),
          what
              + " holds "
              + spec.distinctValues()
              + " value"
              + (spec.distinctValues() == 1 ? "" : "s")
              + " but "
              + neededLabel
              + " is "
              + needed);
      return null;
    }
    return spec;
  }

  /** The options that depend on the type: range, alphabet and length, decimal, constant, choice. */
  private void typeOptions(MapNode m, String path, ValueType type, ValueSpec.Builder builder) {
    Long precision = integer(m, path, "precision", false);
    Long scale = integer(m, path, "scale", false);
    int p = precision == null ? ValueSpec.DEFAULT_PRECISION : precision.intValue();
    int s = scale == null ? ValueSpec.DEFAULT_SCALE : scale.intValue();
    if (precision != null && (precision < 1 || precision > 18)) {
      problem(field(m, "precision"), join(path, "precision"), "precision must be in [1, 18]");
    } else if (scale != null && (scale < 0 || scale > p)) {
      problem(
          field(m, "scale"), join(path, "scale"), "scale must be in [0, precision = " + p + "]");
    } else if (type == ValueType.DECIMAL) {
      builder.decimal(p, s);
    }

    Alphabet alphabet = alphabet(m, path);
    if (alphabet != null) {
      builder.alphabet(alphabet);
    }
    int[] length = length(m, path);
    if (length != null) {
      builder.length(length[0], length[1]);
    }

    YamlNode rangeNode = field(m, "range");
    if (rangeNode != null && (type.isDiscreteRange() || type == ValueType.DOUBLE)) {
      Object[] bounds = bounds(rangeNode, join(path, "range"), type, p, s);
      if (bounds != null) {
        builder.range(bounds[0], bounds[1]);
        if (type == ValueType.STRING) {
          int min = length == null ? ValueSpec.DEFAULT_MIN_LENGTH : length[0];
          int max = length == null ? ValueSpec.DEFAULT_MAX_LENGTH : length[1];
          int size = alphabet == null ? Alphabet.EN.length() : alphabet.size();
          long capacity = Vocabulary.capacityOf(size, min, max);
          if ((Long) bounds[1] >= capacity) {
            problem(
                rangeNode,
                join(path, "range"),
                "right bound "
                    + bounds[1]
                    + " is past the last of the "
                    + capacity
                    + " strings of length "
                    + min
                    + ".."
                    + max
                    + " over this alphabet");
          }
        }
        if (isNormal(m) && overflows(type, bounds)) {
          problem(
              rangeNode,
              join(path, "range"),
              "normal distribution: left + right bound ("
                  + bounds[0]
                  + " + "
                  + bounds[1]
                  + ") overflows "
                  + type.label());
        }
      }
    }

    Double probability = number(m, path, "probability");
    if (probability != null) {
      if (!(probability >= 0 && probability <= 1)) {
        problem(
            field(m, "probability"),
            join(path, "probability"),
            "probability must be in [0, 1], got " + fmt(probability));
      } else {
        builder.probability(probability);
      }
    }

    YamlNode valueNode = field(m, "value");
    if (type == ValueType.CONSTANT) {
      if (valueNode == null) {
        problems.add(new Problem(m.location(), join(path, "value"), "a constant needs a value"));
      } else if (valueNode instanceof Scalar scalar) {
        builder.constant(plain(scalar));
      } else {
        problem(
            valueNode, join(path, "value"), "expected a single value, got " + valueNode.describe());
      }
    }

    if (type == ValueType.CHOICE) {
      choice(m, path, builder);
    }
  }

  private boolean isNormal(MapNode m) {
    return field(m, "distribution") instanceof Scalar s
        && Distribution.Kind.parse(s.text()).orElse(null) == Distribution.Kind.NORMAL;
  }

  /** Picostress centres the normal curve at (left + right) / 2, computed in the column's type. */
  private static boolean overflows(ValueType type, Object[] bounds) {
    if (type == ValueType.INTEGER) {
      long sum = ((Number) bounds[0]).longValue() + ((Number) bounds[1]).longValue();
      return sum > Integer.MAX_VALUE || sum < Integer.MIN_VALUE;
    }
    if (type == ValueType.LONG) {
      long a = (Long) bounds[0];
      long b = (Long) bounds[1];
      long sum = a + b;
      return ((a ^ sum) & (b ^ sum)) < 0;
    }
    return false;
  }

  private void choice(MapNode m, String path, ValueSpec.Builder builder) {
    YamlNode valuesNode = field(m, "values");
    if (valuesNode == null) {
      problems.add(new Problem(m.location(), join(path, "values"), "a choice needs values"));
      return;
    }
    List<YamlNode> items = list(m, path, "values");
    if (valuesNode instanceof ListNode && items.isEmpty()) {
      problem(valuesNode, join(path, "values"), "a choice needs at least one value");
      return;
    }
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i) instanceof Scalar s) {
        values.add(plain(s));
      } else {
        problem(
            items.get(i),
            join(path, "values[" + i + "]"),
            "expected a single value, got " + items.get(i).describe());
      }
    }
    List<Double> weights = new ArrayList<>();
    YamlNode weightsNode = field(m, "weights");
    List<YamlNode> weightItems = list(m, path, "weights");
    for (int i = 0; i < weightItems.size(); i++) {
      String itemPath = join(path, "weights[" + i + "]");
      Double w = numberOf(weightItems.get(i), itemPath);
      if (w != null && !(w >= 0 && !w.isInfinite())) {
        problem(weightItems.get(i), itemPath, "a weight must be >= 0, got " + fmt(w));
      } else if (w != null) {
        weights.add(w);
      }
    }
    if (weightsNode instanceof ListNode && weightItems.size() != items.size()) {
      problem(
          weightsNode,
          join(path, "weights"),
          weightItems.size() + " weights for " + items.size() + " values; give one per value");
    } else if (weightsNode instanceof ListNode && weights.stream().allMatch(w -> w == 0)) {
      problem(weightsNode, join(path, "weights"), "at least one weight must be > 0");
    }
    builder.choices(values, weights.size() == values.size() ? weights : List.of());
  }

  private Alphabet alphabet(MapNode m, String path) {
    YamlNode node = field(m, "alphabet");
    if (node == null) {
      return null;
    }
    List<YamlNode> items =
        node instanceof ListNode l ? l.items() : node instanceof Scalar ? List.of(node) : null;
    if (items == null) {
      problem(
          node,
          join(path, "alphabet"),
          "expected a list of alphabet names, got " + node.describe());
      return null;
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String itemPath = join(path, "alphabet") + (node instanceof ListNode ? "[" + i + "]" : "");
      String text = scalarString(items.get(i), itemPath);
      if (text == null) {
        return null;
      }
      if (Alphabet.charactersOf(text).isEmpty()) {
        problem(
            items.get(i),
            itemPath,
            "unknown alphabet '"
                + text
                + "'"
                + suggestion(text, Alphabet.NAMES)
                + " (one of en, ru, digits, or chars:<characters>)");
        return null;
      }
      names.add(text);
    }
    try {
      return Alphabet.of(names);
    } catch (IllegalArgumentException e) {
      problem(node, join(path, "alphabet"), e.getMessage());
      return null;
    }
  }

  private int[] length(MapNode m, String path) {
    YamlNode node = field(m, "length");
    if (node == null) {
      return null;
    }
    String lengthPath = join(path, "length");
    Long min;
    Long max;
    if (node instanceof ListNode l && l.items().size() == 2) {
      min = integerOf(l.items().get(0), lengthPath + "[0]");
      max = integerOf(l.items().get(1), lengthPath + "[1]");
    } else if (node instanceof Scalar) {
      min = integerOf(node, lengthPath);
      max = min;
    } else {
      problem(node, lengthPath, "expected a length or [min, max], got " + node.describe());
      return null;
    }
    if (min == null || max == null) {
      return null;
    }
    if (min < 1 || max > 1_000_000) {
      problem(node, lengthPath, "string lengths must be in [1, 1000000]");
      return null;
    }
    if (min > max) {
      problem(node, lengthPath, "minimum length " + min + " is greater than maximum length " + max);
      return null;
    }
    return new int[] {min.intValue(), max.intValue()};
  }

  /** Converts a {@code range} to typed bounds, or reports why it cannot. */
  private Object[] bounds(YamlNode node, String path, ValueType type, int precision, int scale) {
    if (!(node instanceof ListNode list) || list.items().size() != 2) {
      problem(node, path, "expected [left, right], got " + describeShape(node));
      return null;
    }
    Object left = bound(list.items().get(0), path + "[0]", type, precision, scale);
    Object right = bound(list.items().get(1), path + "[1]", type, precision, scale);
    if (left == null || right == null) {
      return null;
    }
    @SuppressWarnings("unchecked")
    int order = ((Comparable<Object>) left).compareTo(right);
    if (order > 0) {
      problem(
          node,
          path,
          "left bound "
              + text(list.items().get(0))
              + " is greater than right bound "
              + text(list.items().get(1)));
      return null;
    }
    return new Object[] {left, right};
  }

  private Object bound(YamlNode node, String path, ValueType type, int precision, int scale) {
    if (!(node instanceof Scalar s) || s.isNull()) {
      problem(node, path, "expected a bound, got " + node.describe());
      return null;
    }
    switch (type) {
      case INTEGER, LONG, STRING -> {
        if (s.token() != JsonToken.VALUE_NUMBER_INT) {
          problem(node, path, "expected an integer bound, got " + s.describe());
          return null;
        }
        BigInteger v = new BigInteger(s.text().replace("_", ""));
        BigInteger min =
            BigInteger.valueOf(
                type == ValueType.INTEGER
                    ? Integer.MIN_VALUE
                    : type == ValueType.STRING ? 0 : Long.MIN_VALUE);
        BigInteger max =
            BigInteger.valueOf(type == ValueType.INTEGER ? Integer.MAX_VALUE : Long.MAX_VALUE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
          String why =
              switch (type) {
                case INTEGER -> " does not fit integer (32 bits); use type long";
                case STRING -> " is not a vocabulary entry number (>= 0)";
                default -> " does not fit long (64 bits)";
              };
          problem(node, path, "bound " + s.text() + why);
          return null;
        }
        return v.longValue();
      }
      case DOUBLE -> {
        Double d = numberOf(node, path);
        return d;
      }
      case DECIMAL -> {
        if (s.token() != JsonToken.VALUE_NUMBER_INT && s.token() != JsonToken.VALUE_NUMBER_FLOAT) {
          problem(node, path, "expected a number, got " + s.describe());
          return null;
        }
        BigDecimal d = new BigDecimal(s.text());
        if (d.stripTrailingZeros().scale() > scale
            || d.setScale(scale, java.math.RoundingMode.DOWN).precision() - scale
                > precision - scale) {
          problem(
              node,
              path,
              "bound " + s.text() + " does not fit decimal(" + precision + ", " + scale + ")");
          return null;
        }
        return d.setScale(scale, java.math.RoundingMode.UNNECESSARY);
      }
      case DATETIME -> {
        Instant instant = instant(s.text());
        if (instant == null) {
          problem(
              node,
              path,
              "expected an ISO-8601 datetime such as 2015-10-21T07:28:00Z, got " + s.describe());
        }
        return instant;
      }
      case DATE -> {
        try {
          return LocalDate.parse(s.text());
        } catch (DateTimeParseException e) {
          problem(node, path, "expected an ISO-8601 date such as 2015-10-21, got " + s.describe());
          return null;
        }
      }
      default -> {
        return null;
      }
    }
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException ignored) {
      // try the next form
    }
    try {
      return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
    } catch (DateTimeParseException ignored) {
      return null;
    }
  }

  // ---------------------------------------------------------------- logs

  private LogsSection logs(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    int before = problems.size();
    checkKeys(m, path, LOGS_KEYS);

    List<String> urls = new ArrayList<>();
    YamlNode urlsNode = field(m, "urls");
    List<YamlNode> urlNodes =
        urlsNode instanceof Scalar s && !s.isNull() ? List.of(urlsNode) : list(m, path, "urls");
    for (int i = 0; i < urlNodes.size(); i++) {
      String itemPath = join(path, "urls") + (urlsNode instanceof ListNode ? "[" + i + "]" : "");
      YamlNode at = urlNodes.get(i);
      String raw = scalarString(at, itemPath);
      if (raw == null) {
        continue;
      }
      Optional<String> url =
          Interpolation.apply(raw, environment, problems, at.location(), itemPath);
      if (url.isPresent()) {
        String why = httpUrlProblem(url.get());
        if (why != null) {
          problem(at, itemPath, why);
        } else {
          urls.add(url.get());
        }
      }
    }

    String user = secret(m, path, "user");
    String password = logsSecret(m, path, "password", "a password");
    String apiKey = logsSecret(m, path, "api_key", "an API key");
    if (field(m, "api_key") != null && field(m, "user") != null) {
      problem(
          field(m, "api_key"),
          join(path, "api_key"),
          "give user and password or api_key, not both");
    } else if (field(m, "password") != null && field(m, "user") == null) {
      problem(field(m, "password"), join(path, "password"), "a password needs a user");
    } else if (field(m, "user") != null && field(m, "password") == null) {
      problem(
          field(m, "user"),
          join(path, "user"),
          "basic authentication needs a password too: password: ${env:NAME}");
    }

    LogProfile profile =
        enumField(
            m,
            path,
            "profile",
            false,
            LogProfile::parse,
            Arrays.stream(LogProfile.values()).map(LogProfile::label).toList());
    LogProfile effectiveProfile = profile == null ? LogProfile.WEB : profile;
    // After a bad profile, checks that depend on it would only repeat the problem.
    boolean profileKnown = profile != null || field(m, "profile") == null;
    String mapping =
        enumField(m, path, "mapping", false, WorkloadLoader::preset, IndexSpec.PRESETS);
    if (mapping != null
        && profileKnown
        && !mapping.equals("none")
        && !mapping.equals(effectiveProfile.mappingPreset())) {
      LogProfile owner =
          Arrays.stream(LogProfile.values())
              .filter(p -> p.mappingPreset().equals(mapping))
              .findFirst()
              .orElseThrow();
      problem(
          field(m, "mapping"),
          join(path, "mapping"),
          "mapping "
              + mapping
              + " is for profile "
              + owner.label()
              + ", not "
              + effectiveProfile.label()
              + " (use "
              + effectiveProfile.mappingPreset()
              + " or none)");
    }
    String effectiveMapping = mapping == null ? effectiveProfile.mappingPreset() : mapping;

    String index = string(m, path, "index", false);
    if (index != null) {
      String why = indexNameProblem(index);
      if (why != null) {
        problem(field(m, "index"), join(path, "index"), why);
      }
    }
    Long shards = bounded(m, path, "shards", 1, 1024);
    Long replicas = bounded(m, path, "replicas", 0, 100);
    Long bulkSize = bounded(m, path, "bulk_size", 1, 1_000_000);
    Boolean gzip = bool(m, path, "gzip");
    Long concurrency = bounded(m, path, "concurrency", 1, 10_000);
    Boolean tts = bool(m, path, "time_to_searchable");

    LogIngest ingest = ingest(m, path, bulkSize == null ? LogsSection.DEFAULT_BULK_SIZE : bulkSize);

    List<LogSearch> searches = new ArrayList<>();
    Map<String, Location> searchNames = new LinkedHashMap<>();
    List<YamlNode> searchNodes = list(m, path, "searches");
    for (int i = 0; i < searchNodes.size(); i++) {
      String itemPath = join(path, "searches[" + i + "]");
      LogSearch search = search(searchNodes.get(i), itemPath);
      if (search != null) {
        Location first = searchNames.putIfAbsent(search.name(), searchNodes.get(i).location());
        if (first != null) {
          problem(
              searchNodes.get(i),
              itemPath,
              "duplicate search '" + search.name() + "' (first at line " + first.line() + ")");
        }
        searches.add(search);
      }
    }
    if (!searchNodes.isEmpty() && profileKnown && effectiveProfile != LogProfile.WEB) {
      problem(
          field(m, "searches"),
          join(path, "searches"),
          "the built-in searches query the web profile's fields; profile is "
              + effectiveProfile.label());
    }

    if (problems.size() > before || ingest == null) {
      return null;
    }
    int shardCount =
        shards != null
            ? shards.intValue()
            : IndexSpec.preset("x", effectiveProfile.mappingPreset()).shards();
    return new LogsSection(
        urls,
        user,
        password,
        apiKey,
        effectiveProfile,
        index != null ? index : effectiveProfile.mappingPreset(),
        effectiveMapping,
        shardCount,
        replicas == null ? 0 : replicas.intValue(),
        bulkSize == null ? LogsSection.DEFAULT_BULK_SIZE : bulkSize.intValue(),
        gzip != null && gzip,
        concurrency == null ? LogsSection.DEFAULT_CONCURRENCY : concurrency.intValue(),
        ingest,
        tts != null && tts,
        searches);
  }

  /** Exactly one of docs, rate and steps, with the keys that go with it. */
  private LogIngest ingest(MapNode m, String path, long bulkSize) {
    List<String> given =
        Stream.of("docs", "rate", "steps").filter(k -> field(m, k) != null).toList();
    if (given.isEmpty()) {
      problems.add(
          new Problem(
              m.location(),
              path,
              "nothing to ingest: give docs (an exact count), rate (bulks/s) or steps (a list of"
                  + " rates)"));
      return null;
    }
    if (given.size() > 1) {
      String second = given.get(1);
      problem(
          field(m, second),
          join(path, second),
          "give one of docs, rate or steps, not " + given.get(0) + " and " + second);
      return null;
    }
    String mode = given.get(0);
    misplaced(m, path, "duration", !mode.equals("rate"), "duration goes with rate");
    misplaced(m, path, "step_duration", !mode.equals("steps"), "step_duration goes with steps");
    misplaced(
        m,
        path,
        "concurrency",
        !mode.equals("docs"),
        "concurrency goes with docs: at a rate, each arrival sends one bulk");
    switch (mode) {
      case "docs" -> {
        Long docs = bounded(m, path, "docs", 1, Long.MAX_VALUE);
        if (docs == null) {
          return null;
        }
        if (docs % bulkSize != 0) {
          problem(
              field(m, "docs"),
              join(path, "docs"),
              "docs " + docs + " is not a multiple of bulk_size " + bulkSize);
          return null;
        }
        return LogIngest.docs(docs);
      }
      case "rate" -> {
        Double rate = positiveNumber(field(m, "rate"), join(path, "rate"), "rate");
        java.time.Duration duration = logsDuration(m, path, "duration");
        if (rate == null || field(m, "duration") != null && duration == null) {
          return null;
        }
        return LogIngest.rate(rate, duration != null ? duration : LogIngest.DEFAULT_DURATION);
      }
      default -> {
        List<YamlNode> items = list(m, path, "steps");
        if (items.isEmpty() && field(m, "steps") instanceof ListNode) {
          problem(field(m, "steps"), join(path, "steps"), "steps needs at least one rate");
          return null;
        }
        List<Double> rates = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
          Double rate =
              positiveNumber(items.get(i), join(path, "steps") + "[" + i + "]", "a step's rate");
          if (rate != null) {
            rates.add(rate);
          }
        }
        java.time.Duration step = logsDuration(m, path, "step_duration");
        if (rates.size() != items.size()
            || items.isEmpty()
            || field(m, "step_duration") != null && step == null) {
          return null;
        }
        return LogIngest.steps(rates, step != null ? step : LogIngest.DEFAULT_STEP_DURATION);
      }
    }
  }

  private void misplaced(MapNode m, String path, String key, boolean wrong, String why) {
    if (wrong && field(m, key) != null) {
      problem(field(m, key), join(path, key), why);
    }
  }

  /** A search: its name, or a mapping with name and overrides. */
  private LogSearch search(YamlNode node, String path) {
    YamlNode nameNode;
    MapNode m = null;
    String namePath;
    if (node instanceof MapNode map) {
      m = map;
      checkKeys(m, path, SEARCH_KEYS);
      nameNode = field(m, "name");
      namePath = join(path, "name");
      if (nameNode == null) {
        problems.add(new Problem(m.location(), namePath, "missing required field"));
        return null;
      }
    } else {
      nameNode = node;
      namePath = path;
    }
    String text = scalarString(nameNode, namePath);
    if (text == null) {
      return null;
    }
    String key = text.strip().toLowerCase(Locale.ROOT).replace('-', ' ').replace('_', ' ');
    if (!LogSearches.NAMES.contains(key)) {
      problem(
          nameNode,
          namePath,
          "unknown search '"
              + text
              + "'"
              + suggestion(key, LogSearches.NAMES)
              + " (one of "
              + String.join(", ", LogSearches.NAMES)
              + ")");
      return null;
    }
    if (m == null) {
      return new LogSearch(key, OptionalInt.empty(), Optional.empty(), OptionalInt.empty());
    }
    int before = problems.size();
    Long users = bounded(m, path, "concurrency", 1, 10_000);
    java.time.Duration duration = logsDuration(m, path, "duration");
    Long iterations = bounded(m, path, "iterations", 1, Integer.MAX_VALUE);
    if (field(m, "duration") != null && field(m, "iterations") != null) {
      problem(
          field(m, "iterations"),
          join(path, "iterations"),
          "give duration or iterations, not both");
    }
    if (problems.size() > before) {
      return null;
    }
    return new LogSearch(
        key,
        users == null ? OptionalInt.empty() : OptionalInt.of(users.intValue()),
        Optional.ofNullable(duration),
        iterations == null ? OptionalInt.empty() : OptionalInt.of(iterations.intValue()));
  }

  /** A secret of the logs section: from the environment only. */
  private String logsSecret(MapNode m, String path, String key, String what) {
    YamlNode node = field(m, key);
    if (node instanceof Scalar s && !s.isNull() && !Interpolation.usesEnvironment(s.text())) {
      problem(node, join(path, key), what + " must not be written in the file; use ${env:NAME}");
      return null;
    }
    return secret(m, path, key);
  }

  /** An optional integer in [min, max]. */
  private Long bounded(MapNode m, String path, String key, long min, long max) {
    Long value = integer(m, path, key, false);
    if (value == null) {
      return null;
    }
    if (value < min || value > max) {
      problem(
          field(m, key),
          join(path, key),
          key
              + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                  ? " must be >= " + min
                  : " must be between " + min + " and " + max)
              + ", got "
              + value);
      return null;
    }
    return value;
  }

  private Double positiveNumber(YamlNode node, String path, String what) {
    Double value = numberOf(node, path);
    if (value == null) {
      return null;
    }
    if (!(value > 0) || value.isInfinite()) {
      problem(node, path, what + " must be > 0 bulks/s, got " + text(node));
      return null;
    }
    return value;
  }

  /**
   * A duration: whole seconds ({@code 30}) or {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}.
   */
  private java.time.Duration logsDuration(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null) {
      return null;
    }
    String p = join(path, key);
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_STRING)) {
      java.util.regex.Matcher match =
          java.util.regex.Pattern.compile("([0-9]{1,9})\\s*(ms|s|m|h)?")
              .matcher(s.text().strip().toLowerCase(Locale.ROOT));
      if (match.matches()) {
        long amount = Long.parseLong(match.group(1));
        String unit = match.group(2) == null ? "s" : match.group(2);
        java.time.Duration d =
            switch (unit) {
              case "ms" -> java.time.Duration.ofMillis(amount);
              case "m" -> java.time.Duration.ofMinutes(amount);
              case "h" -> java.time.Duration.ofHours(amount);
              default -> java.time.Duration.ofSeconds(amount);
            };
        if (d.isZero()) {
          problem(node, p, key + " must be > 0, got " + s.text());
          return null;
        }
        return d;
      }
    }
    problem(node, p, "expected a duration such as 30s, 500ms, 2m or 1h, got " + node.describe());
    return null;
  }

  private static Optional<String> preset(String name) {
    if (!IndexSpec.isPreset(name)) {
      return Optional.empty();
    }
    String key = name.strip().toLowerCase(Locale.ROOT);
    return Optional.of(
        switch (key) {
          case "web" -> "web-logs";
          case "k8s" -> "k8s-logs-index";
          default -> key;
        });
  }

  /** Why a base URL cannot be used (never showing credentials), or null. */
  private static String httpUrlProblem(String url) {
    java.net.URI uri;
    try {
      uri = java.net.URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      return "not a URL: " + LogsClientOptions.mask(url);
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
      return "expected an http:// or https:// base URL, got " + LogsClientOptions.mask(url);
    }
    if (uri.getHost() == null) {
      return "no host in " + LogsClientOptions.mask(url);
    }
    if (uri.getUserInfo() != null) {
      return "put credentials in user and password (from ${env:NAME}), not in the URL: "
          + LogsClientOptions.mask(url);
    }
    return null;
  }

  /** Elasticsearch's rules for index names, or null when the name is valid. */
  private static String indexNameProblem(String name) {
    if (name.isEmpty()
        || !name.equals(name.toLowerCase(Locale.ROOT))
        || name.matches(".*[\\\\/*?\"<>| ,#:].*")
        || name.startsWith("-")
        || name.startsWith("_")
        || name.startsWith("+")
        || name.equals(".")
        || name.equals("..")
        || name.getBytes(StandardCharsets.UTF_8).length > 255) {
      return "index '"
          + name
          + "' is not a valid index name: lowercase, at most 255 bytes, none of \\ / * ? \" < > |"
          + " , # : or spaces, not starting with -, _ or +";
    }
    return null;
  }

  // ---------------------------------------------------------------- fields

  private void checkKeys(MapNode m, String path, Set<String> known) {
    for (Entry e : m.entries()) {
      if (!known.contains(e.key())) {
        Optional<String> close = Suggestions.closest(e.key(), known);
        problems.add(
            new Problem(
                e.keyLocation(),
                join(path, e.key()),
                "unknown key '"
                    + e.key()
                    + "'"
                    + close.map(c -> "; did you mean '" + c + "'?").orElse("")));
      }
    }
  }

  private static YamlNode field(MapNode m, String key) {
    for (Entry e : m.entries()) {
      if (e.key().equals(key)) {
        return e.value();
      }
    }
    return null;
  }

  private MapNode asMap(YamlNode node, String path) {
    if (node instanceof MapNode m) {
      return m;
    }
    problem(node, path, "expected a mapping (key: value lines), got " + node.describe());
    return null;
  }

  private String string(MapNode m, String path, String key, boolean required) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      if (required) {
        problems.add(
            new Problem(
                node == null ? m.location() : node.location(),
                join(path, key),
                "missing required field"));
      }
      return null;
    }
    return scalarString(node, join(path, key));
  }

  private String scalarString(YamlNode node, String path) {
    if (node instanceof Scalar s && !s.isNull()) {
      return s.text();
    }
    problem(node, path, "expected text, got " + node.describe());
    return null;
  }

  private Long integer(MapNode m, String path, String key, boolean required) {
    YamlNode node = field(m, key);
    if (node == null) {
      if (required) {
        problems.add(new Problem(m.location(), join(path, key), "missing required field"));
      }
      return null;
    }
    return integerOf(node, join(path, key));
  }

  private Long integerOf(YamlNode node, String path) {
    if (node instanceof Scalar s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      try {
        return Long.parseLong(s.text().replace("_", ""));
      } catch (NumberFormatException e) {
        problem(node, path, "integer " + s.text() + " is too large");
        return null;
      }
    }
    problem(node, path, "expected an integer, got " + node.describe());
    return null;
  }

  private Double number(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    return node == null ? null : numberOf(node, join(path, key));
  }

  private Double numberOf(YamlNode node, String path) {
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_NUMBER_FLOAT)) {
      try {
        return Double.parseDouble(s.text().replace("_", ""));
      } catch (NumberFormatException e) {
        // YAML numbers such as .inf: report below
      }
    }
    problem(node, path, "expected a number, got " + node.describe());
    return null;
  }

  private Boolean bool(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null) {
      return null;
    }
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE)) {
      return s.token() == JsonToken.VALUE_TRUE;
    }
    problem(node, join(path, key), "expected true or false, got " + node.describe());
    return null;
  }

  private List<YamlNode> list(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (node instanceof ListNode l) {
      return l.items();
    }
    problem(node, join(path, key), "expected a list, got " + node.describe());
    return List.of();
  }

  /** A list of names; a single name is accepted as a list of one. */
  private List<String> stringList(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (node instanceof Scalar) {
      String one = scalarString(node, join(path, key));
      return one == null ? List.of() : List.of(one);
    }
    List<String> out = new ArrayList<>();
    List<YamlNode> items = list(m, path, key);
    for (int i = 0; i < items.size(); i++) {
      String text = scalarString(items.get(i), join(path, key) + "[" + i + "]");
      if (text != null) {
        out.add(text);
      }
    }
    return out;
  }

  private <T> T enumField(
      MapNode m,
      String path,
      String key,
      boolean required,
      Function<String, Optional<T>> parser,
      List<String> names) {
    String text = string(m, path, key, required);
    if (text == null) {
      return null;
    }
    Optional<T> parsed = parser.apply(text);
    if (parsed.isEmpty()) {
      problem(
          field(m, key),
          join(path, key),
          "unknown "
              + key
              + " '"
              + text
              + "'"
              + Suggestions.closest(text, names).map(c -> "; did you mean '" + c + "'?").orElse("")
              + " (one of "
              + String.join(", ", names)
              + ")");
      return null;
    }
    return parsed.get();
  }

  private static List<String> typeNames() {
    return Arrays.stream(ValueType.values()).map(ValueType::label).toList();
  }

  private static List<String> distributionNames() {
    return Arrays.stream(Distribution.Kind.values()).map(Distribution.Kind::label).toList();
  }

  private Map<String, Object> vendorOptions(MapNode m, Set<String> vendorKeys) {
    Map<String, Object> options = new LinkedHashMap<>();
    for (Entry e : m.entries()) {
      if (vendorKeys.contains(e.key())) {
        options.put(e.key(), plain(e.value()));
      }
    }
    return options;
  }

  /** A node as plain Java values: maps, lists, strings, longs, doubles, booleans, nulls. */
  private static Object plain(YamlNode node) {
    if (node instanceof MapNode m) {
      Map<String, Object> map = new LinkedHashMap<>();
      m.entries().forEach(e -> map.put(e.key(), plain(e.value())));
      return map;
    }
    if (node instanceof ListNode l) {
      return l.items().stream().map(WorkloadLoader::plain).toList();
    }
    Scalar s = (Scalar) node;
    return switch (s.token()) {
      case VALUE_NULL -> null;
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NUMBER_INT -> {
        try {
          yield Long.parseLong(s.text().replace("_", ""));
        } catch (NumberFormatException e) {
          yield new BigInteger(s.text().replace("_", ""));
        }
      }
      case VALUE_NUMBER_FLOAT -> Double.parseDouble(s.text());
      default -> s.text();
    };
  }

  // ---------------------------------------------------------------- helpers

  private void problem(YamlNode node, String path, String message) {
    problems.add(new Problem(node.location(), path, message));
  }

  private static String suggestion(String word, java.util.Collection<String> candidates) {
    return Suggestions.closest(word, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
  }

  private static String describeShape(YamlNode node) {
    return node instanceof ListNode l ? "a list of " + l.items().size() : node.describe();
  }

  private static String text(YamlNode node) {
    return node instanceof Scalar s ? s.text() : node.describe();
  }

  private static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static Set<String> keys(String... names) {
    return new LinkedHashSet<>(Arrays.asList(names));
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    return Stream.concat(a.stream(), b.stream())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }
}
