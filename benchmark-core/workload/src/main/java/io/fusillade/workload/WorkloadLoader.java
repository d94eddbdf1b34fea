package io.fusillade.workload;

import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSettings;
import io.fusillade.system.ServerTarget;
import io.fusillade.workload.YamlNode.MapNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Function;
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
 * <p>This class is the entry point: it reads the text ({@link YamlReader}), the top-level keys, and
 * hands each section to its parser ({@link SqlParser}, {@link LogsParser}, {@link TopicsParser};
 * value specs by {@link ValueParser}), all over one {@link FieldReader} and its list of problems,
 * which it sorts by line and column at the end.
 *
 * <pre>{@code
 * Workload workload = WorkloadLoader.load(Path.of("cars.yml")).orThrow();
 * }</pre>
 */
public final class WorkloadLoader {

  private static final Set<String> TOP_KEYS =
      FieldReader.keys(
          "config_name",
          "seed",
          "connection",
          "tables_schema",
          "indexes",
          "queries",
          "logs",
          "kafka",
          "topics",
          "load",
          "checks",
          "abort",
          "limit",
          "adaptive",
          "scale",
          "monitor",
          "injected",
          "faults");

  private final String file;
  private final List<Problem> problems = new ArrayList<>();
  private final FieldReader fields;
  private final Double scale; // over the file's and the system property's, or null

  private WorkloadLoader(String file, Function<String, String> environment, Double scale) {
    this.file = file;
    this.fields = new FieldReader(environment, problems);
    this.scale = scale;
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
    return load(path, environment, null);
  }

  /**
   * @param path the workload file
   * @param environment the lookup of environment variables (null for unset)
   * @param scale the scale factor over the file's (a run plan's), or null for {@value
   *     #SCALE_PROPERTY} or the file's own
   * @return the workload or its problems
   */
  public static LoadResult load(Path path, Function<String, String> environment, Double scale) {
    String name = path.toString();
    if (!Files.isRegularFile(path)) {
      // A fifo or a device would block the read, or never end it.
      return failure(name, "cannot read the file: " + unreadable(path));
    }
    String text;
    try {
      byte[] bytes = Files.readAllBytes(path);
      text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return failure(name, "not valid YAML: the file is not UTF-8 text");
    } catch (IOException e) {
      // Said in words: an exception's class name reads like a crash to a user.
      return failure(name, "cannot read the file: " + unreadable(path));
    }
    return new WorkloadLoader(name, environment, scale).run(text);
  }

  /**
   * @param fileName the name to use in messages
   * @param text the YAML text
   * @param environment the lookup of environment variables (null for unset)
   * @return the workload or its problems
   */
  public static LoadResult parse(
      String fileName, String text, Function<String, String> environment) {
    return new WorkloadLoader(fileName, environment, null).run(text);
  }

  /** Why a file that could not be read could not be, in words. */
  private static String unreadable(Path path) {
    if (Files.isDirectory(path)) {
      return "it is a directory";
    }
    if (!Files.exists(path)) {
      return "no such file";
    }
    if (!Files.isRegularFile(path)) {
      return "it is not a regular file (a fifo or a device)";
    }
    return Files.isReadable(path) ? "an input/output error" : "permission denied";
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
    Workload workload = workload(top);
    // a cast to a type no SQL dialect has, misspelt from one: ::integr (see CastReview)
    problems.addAll(CastReview.misspelt(workload.queries(), text));
    return result(workload);
  }

  private LoadResult result(Workload workload) {
    List<Problem> sorted = new ArrayList<>(problems);
    sorted.sort(
        Comparator.comparingInt((Problem p) -> p.location().line())
            .thenComparingInt(p -> p.location().column()));
    return new LoadResult(
        sorted.isEmpty() ? Optional.ofNullable(workload) : Optional.empty(), sorted);
  }

  /** Reads each section with its parser, in the order the sections' checks have always run. */
  private Workload workload(MapNode top) {
    fields.checkKeys(top, "", TOP_KEYS);
    scale(top);
    String name = fields.string(top, "", "config_name", false);
    Long seed = fields.integer(top, "", "seed", false);
    ValueParser values = new ValueParser(fields);
    SqlParser.Sections sql = new SqlParser(fields, values).read(top);
    Optional<LogsSection> logs = new LogsParser(fields).logs(top);
    TopicsParser topicsParser = new TopicsParser(fields, values);
    Optional<KafkaConnection> kafka = topicsParser.kafka(top);
    List<TopicWorkload> topics = topicsParser.topics(top);
    LoadParser loadParser = new LoadParser(fields);
    Load load = loadParser.load(top, name);
    List<CheckText> checks = loadParser.checks(top);
    List<AbortRule> abort = loadParser.abortRules(top);
    List<Fault> faults = loadParser.faults(top);
    Optional<LimitSettings> limit = new LimitParser(fields).limit(top);
    Optional<AdaptiveSettings> adaptive = new AdaptiveParser(fields).adaptive(top);
    MonitorParser monitorParser = new MonitorParser(fields);
    List<ServerTarget> monitor = monitorParser.targets(top);
    boolean hasSql = FieldReader.field(top, "queries") != null;
    boolean hasLogs = FieldReader.field(top, "logs") != null;
    boolean hasTopics = FieldReader.field(top, "topics") != null;
    List<String> sections = new ArrayList<>();
    if (hasSql) {
      sections.add("queries");
    }
    if (hasLogs) {
      sections.add("logs");
    }
    if (hasTopics) {
      sections.add("topics");
    }
    List<InjectedFault> injected =
        new InjectedParser(fields)
            .faults(
                top,
                InjectedFault.kindsFor(hasSql, hasLogs, hasTopics),
                sections.isEmpty()
                    ? "a workload without requests"
                    : String.join(" and ", sections));
    if (hasTopics && injected.stream().anyMatch(InjectedFault::hasRate)) {
      // Gatling gives a population with its own protocol its own components: a topic's would
      // open a second client, with its own consumers and delivery count
      problems.add(
          new Problem(
              FieldReader.field(top, "injected").location(),
              "injected",
              "a topics workload's injected kinds take a share of the writes, not a rate of their"
                  + " own"));
    }
    if (logs.isPresent()
        && "none".equals(logs.get().mapping())
        && injected.stream().anyMatch(f -> InjectedFault.MAPPING_VIOLATION.equals(f.kind()))) {
      problems.add(
          new Problem(
              FieldReader.field(top, "injected").location(),
              "injected",
              "a mapping violation needs a typed field to violate: logs.mapping none has none"
                  + " (web-logs or k8s-logs-index have)"));
    }

    if (problems.isEmpty()
        && Stream.of("tables_schema", "queries", "logs", "topics")
            .allMatch(key -> FieldReader.field(top, key) == null)) {
      problems.add(
          new Problem(
              top.location(),
              "",
              "nothing to do: the file has neither tables_schema, queries, logs nor topics"));
    }
    return new Workload(
        file,
        name != null ? name : defaultName(),
        seed == null ? OptionalLong.empty() : OptionalLong.of(seed),
        sql.connection(),
        sql.tables(),
        sql.indexes(),
        sql.queries(),
        logs,
        kafka,
        topics,
        load,
        checks,
        FieldReader.field(top, "checks") != null,
        abort,
        limit,
        adaptive,
        monitor,
        injected,
        faults,
        monitorParser.logs);
  }

  /** The system property that overrides a workload's {@code scale}. */
  public static final String SCALE_PROPERTY = "fusillade.scale";

  /**
   * The scale factor: {@value #SCALE_PROPERTY} when set, else the file's {@code scale} (default 1),
   * which multiplies every integer written {@code N * scale}. Read before the tables.
   */
  private void scale(MapNode top) {
    if (scale != null) {
      fields.scale[0] = scale;
      return;
    }
    String given = System.getProperty(SCALE_PROPERTY);
    Double value = null;
    if (given != null && !given.isBlank()) {
      try {
        value = Double.parseDouble(given.strip());
      } catch (NumberFormatException e) {
        value = null;
      }
      if (value == null || !(value > 0) || value.isInfinite()) {
        problems.add(
            new Problem(
                top.location(),
                "scale",
                "system property " + SCALE_PROPERTY + "=" + given + " is not a number above 0"));
        return;
      }
    } else if (FieldReader.field(top, "scale") != null) {
      value = fields.number(top, "", "scale");
      if (value != null && !(value > 0)) {
        fields.problem(FieldReader.field(top, "scale"), "scale", "scale must be > 0, got " + value);
        value = null;
      }
    }
    if (value != null) {
      fields.scale[0] = value;
    }
  }

  private String defaultName() {
    String base = Path.of(file).getFileName().toString();
    int dot = base.lastIndexOf('.');
    return dot > 0 ? base.substring(0, dot) : base;
  }
}
