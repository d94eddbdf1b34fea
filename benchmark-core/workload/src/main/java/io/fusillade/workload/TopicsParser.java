package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.record.SettingValues;
import io.fusillade.workload.YamlNode.Entry;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the Kafka sections of a workload: {@code kafka} (the cluster and client properties) and
 * {@code topics} (each topic's settings, message sizes and keys, and its rate or steps).
 */
final class TopicsParser extends FieldReader {

  private static final Set<String> KAFKA_KEYS =
      keys("bootstrap_servers", "properties", "embedded_disk_size");

  /** The smallest disk an embedded broker takes (its log directory's first segments). */
  private static final long MIN_DISK = 1024 * 1024;

  private static final Set<String> TOPIC_KEYS =
      keys(
          "name",
          "partitions",
          "replication",
          "create",
          "configs",
          "consumers",
          "producers",
          "group",
          "message_size",
          "key",
          "producer",
          "consumer",
          "rate",
          "rate_per_producer",
          "steps",
          "stages",
          "duration",
          "sink");
  private static final Set<String> SINK_KEYS = keys("table", "topic");
  private static final Set<String> STEP_KEYS = keys("start", "increment", "count", "duration");
  private static final long MAX_MESSAGE_SIZE = 64L * 1024 * 1024;

  /** Whole units: {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}. */
  private static final Pattern DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

  private final ValueParser values;

  TopicsParser(FieldReader shared, ValueParser values) {
    super(shared);
    this.values = values;
  }

  /** The {@code kafka} section of the top-level mapping, if given. */
  Optional<KafkaConnection> kafka(MapNode top) {
    return Optional.ofNullable(field(top, "kafka")).map(n -> kafka(n, "kafka"));
  }

  /** The valid topics of the {@code topics} section. */
  List<TopicWorkload> topics(MapNode top) {
    List<TopicWorkload> topics = new ArrayList<>();
    Map<String, Location> topicNames = new LinkedHashMap<>();
    eachMapping(
        top,
        "",
        "topics",
        (m, path, i) -> {
          TopicWorkload topic = topic(m, path);
          if (field(m, "name") instanceof Scalar n && !n.isNull()) {
            firstUse(topicNames, n.text(), n, path + ".name", "topic");
          }
          if (topic != null) {
            topics.add(topic);
          }
        });
    return topics;
  }

  private KafkaConnection kafka(YamlNode node, String path) {
    MapNode m = asMap(node, path);
    if (m == null) {
      return null;
    }
    checkKeys(m, path, KAFKA_KEYS);
    String bootstrap = secret(m, path, "bootstrap_servers");
    Map<String, String> properties = properties(m, path, "properties");
    return new KafkaConnection(bootstrap, properties, diskSize(m, path, bootstrap != null));
  }

  /**
   * {@code embedded_disk_size: 16MB}: each embedded broker's log directory on a disk of that size
   * (the disk test); 0 when not given or wrong (the problem is recorded).
   */
  private long diskSize(MapNode m, String path, boolean external) {
    YamlNode node = field(m, "embedded_disk_size");
    if (node == null) {
      return 0;
    }
    String at = join(path, "embedded_disk_size");
    if (external) {
      problem(
          node,
          at,
          "a disk size is for the embedded brokers; the disks of the cluster at bootstrap_servers"
              + " are its own");
      return 0;
    }
    if (!(node instanceof Scalar s) || s.isNull()) {
      problem(node, at, "expected a size such as 16MB, got " + node.describe());
      return 0;
    }
    long bytes;
    try {
      bytes = SettingValues.parseSize(s.text());
    } catch (IllegalArgumentException e) {
      problem(node, at, e.getMessage());
      return 0;
    }
    if (bytes < MIN_DISK) {
      problem(node, at, "an embedded broker's disk is at least 1MiB, not " + s.text());
      return 0;
    }
    return bytes;
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
      String lower = e.key().toLowerCase(Locale.ROOT);
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
    Long producers = integer(m, path, "producers", false);
    if (producers != null && (producers < 1 || producers > TopicWorkload.MAX_PRODUCERS)) {
      problem(
          field(m, "producers"),
          join(path, "producers"),
          "producers must be in [1, "
              + TopicWorkload.MAX_PRODUCERS
              + "]: each is a Kafka producer of its own");
    }
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
        key = Optional.ofNullable(values.value(k, join(path, "key"), "key", 0, "count"));
      }
    }
    Double rate = number(m, path, "rate");
    if (rate != null && !(rate > 0 && !rate.isInfinite())) {
      problem(field(m, "rate"), join(path, "rate"), "rate must be > 0 messages per second");
    }
    // the seed's "8M messages/s over 10 streams": each writer's rate, the topic's is N times it
    Double perProducer = number(m, path, "rate_per_producer");
    if (perProducer != null) {
      YamlNode at = field(m, "rate_per_producer");
      String where = join(path, "rate_per_producer");
      if (!(perProducer > 0 && !perProducer.isInfinite())) {
        problem(at, where, "rate_per_producer must be > 0 messages per second");
      } else if (field(m, "rate") != null) {
        problem(
            at, where, "give rate (the topic's) or rate_per_producer (each writer's), not both");
      } else if (producers == null) {
        problem(at, where, "rate_per_producer needs producers: N, the writers that each send it");
      } else {
        rate = perProducer * producers;
      }
    }
    TopicWorkload.Steps steps = null;
    YamlNode stepsNode = field(m, "steps");
    if (stepsNode != null) {
      steps = steps(stepsNode, join(path, "steps"));
    }
    YamlNode stagesNode = field(m, "stages");
    List<Stage> stages = new LoadParser(this).stages(m, path);
    if (stagesNode != null) {
      // Stages state the whole profile, as in load.stages: a rate, steps or a duration beside
      // them would be a second profile, so each is a contradiction at its own line.
      for (String other : List.of("rate", "rate_per_producer", "steps", "duration")) {
        if (field(m, other) != null) {
          problem(
              field(m, other),
              join(path, other),
              "give stages or "
                  + (other.equals("steps") ? "steps" : "rate and duration")
                  + ", not both: stages state the whole profile");
        }
      }
    } else if ((rate != null || perProducer != null) && stepsNode != null) {
      problem(stepsNode, join(path, "steps"), "give rate or steps, not both");
    } else if (rate == null && perProducer == null && stepsNode == null) {
      problems.add(
          new Problem(m.location(), path, "a topic needs rate (messages per second) or steps"));
    }
    Duration duration = duration(m, path, "duration", Duration.ofSeconds(60));
    String[] sink = sink(m, path, consumers);
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
        duration,
        stages,
        sink[0],
        sink[1],
        producers == null ? 0 : producers.intValue());
  }

  /**
   * {@code sink: {table: NAME}} (the consumers write each message into this PostgreSQL table with
   * their offsets, exactly once) or {@code sink: {topic: NAME}} (they copy it to this topic with
   * their offsets in one Kafka transaction); it needs consumers.
   *
   * @return the table and the topic, either or both null
   */
  private String[] sink(MapNode m, String path, long consumers) {
    String[] none = {null, null};
    YamlNode node = field(m, "sink");
    if (node == null) {
      return none;
    }
    String sinkPath = join(path, "sink");
    MapNode sink = asMap(node, sinkPath);
    if (sink == null) {
      return none;
    }
    checkKeys(sink, sinkPath, SINK_KEYS);
    if ((field(sink, "table") == null) == (field(sink, "topic") == null)) {
      problem(
          node, sinkPath, "give table (a PostgreSQL table) or topic (a Kafka topic), one of them");
      return none;
    }
    String table = string(sink, sinkPath, "table", false);
    String topic = string(sink, sinkPath, "topic", false);
    if (table != null && !table.matches("[a-z_][a-z0-9_]{0,50}")) {
      problem(
          field(sink, "table"),
          join(sinkPath, "table"),
          "a table name of lower-case letters, digits and '_' (at most 51), got \"" + table + "\"");
      return none;
    }
    if (topic != null && !topic.matches("[A-Za-z0-9._-]{1,249}")) {
      problem(
          field(sink, "topic"),
          join(sinkPath, "topic"),
          "a topic name of letters, digits, '.', '_' and '-', got \"" + topic + "\"");
      return none;
    }
    if (consumers < 1) {
      problem(
          node, sinkPath, "a sink is written by the topic's consumers: give consumers: 1 or more");
    }
    return new String[] {table, topic};
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
    ValueSpec size = values.value(spec, sizePath, "message_size", 0, "count");
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
      missing(m, path, "start");
    } else if (start != null && !(start > 0)) {
      problem(field(m, "start"), join(path, "start"), "start must be > 0 messages per second");
    }
    if (increment != null && increment < 0) {
      problem(field(m, "increment"), join(path, "increment"), "increment must be >= 0");
    }
    if (count != null && (count < 1 || count > 1000)) {
      problem(field(m, "count"), join(path, "count"), "count must be in [1, 1000]");
    }
    Duration duration = duration(m, path, "duration", null);
    if (field(m, "duration") == null) {
      missing(m, path, "duration");
    }
    if (problems.size() > before) {
      return null;
    }
    return new TopicWorkload.Steps(
        start, increment == null ? start : increment, count.intValue(), duration);
  }

  /** A duration: whole seconds, or text such as 30s, 500ms, 2m, 1h. */
  private Duration duration(MapNode m, String path, String key, Duration defaultValue) {
    YamlNode node = field(m, key);
    if (node == null) {
      return defaultValue;
    }
    String durationPath = join(path, key);
    if (node instanceof Scalar s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      Long seconds = integerOf(node, durationPath);
      if (seconds != null && seconds > 0) {
        return Duration.ofSeconds(seconds);
      }
    } else if (node instanceof Scalar s && !s.isNull()) {
      Matcher matcher = DURATION.matcher(s.text().strip());
      if (matcher.matches()) {
        Duration d = durationOf(Long.parseLong(matcher.group(1)), matcher.group(2));
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
}
