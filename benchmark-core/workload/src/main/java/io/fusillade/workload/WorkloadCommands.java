package io.fusillade.workload;

import io.fusillade.FusilladeException;
import io.fusillade.gen.Distribution;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The logic of {@code fusillade workload check} and {@code fusillade workload sample}, free of any
 * command-line library so that it is tested here and the CLI only delegates. Both return the
 * process exit status: 0 for success, 2 for a problem the user can fix (printed without a stack
 * trace).
 */
public final class WorkloadCommands {

  /** Exit status of success. */
  public static final int OK = 0;

  /** Exit status of a user error: bad file, unknown table, bad option. */
  public static final int USER_ERROR = 2;

  private WorkloadCommands() {}

  /**
   * Validates a workload file and prints either every problem or a one-screen summary, the notes
   * about its casts ({@link CastReview}, for the server of its {@code connection}, else the
   * embedded PostgreSQL) and, last, its verdict.
   *
   * @param file the workload file
   * @param seed the seed to show in the summary, or null for the file's (or the default)
   * @param environment the lookup of {@code ${env:NAME}} variables
   * @param out where the summary goes
   * @param err where the problems go
   * @return {@link #OK} or {@link #USER_ERROR}
   */
  public static int check(
      Path file,
      Long seed,
      Function<String, String> environment,
      PrintWriter out,
      PrintWriter err) {
    return check(file, seed, environment, null, out, err);
  }

  /**
   * The server a check asks ({@code workload check --url}): what it is, and which of the workload's
   * queries it refuses to prepare.
   */
  public interface Server {
    /**
     * @return what the server was found to be
     */
    CastReview.Target target();

    /**
     * Has the server prepare every query, as the run would send them.
     *
     * @param workload the workload, its casts {@linkplain CastReview#adapt adapted}
     * @return one problem per query it refuses
     */
    List<Problem> prepare(Workload workload);

    /**
     * @return the server in messages: its URL without a password
     */
    String where();
  }

  /**
   * As {@link #check(Path, Long, Function, PrintWriter, PrintWriter)}, and when {@code server} is
   * given, its casts judged for that server and its queries prepared there. The verdict is printed
   * once, after everything else: {@code FILE: OK} or {@code N problems found in FILE}.
   *
   * @param server the server asked, or null to judge offline
   */
  public static int check(
      Path file,
      Long seed,
      Function<String, String> environment,
      Server server,
      PrintWriter out,
      PrintWriter err) {
    LoadResult result = WorkloadLoader.load(file, environment);
    if (!result.isValid()) {
      return problems(result.problems(), file, "", err);
    }
    Workload workload = result.workload().orElseThrow();
    CastReview.Target target =
        server != null
            ? server.target()
            : CastReview.Target.of(workload.connection().map(c -> c.urls()).orElse(List.of()));
    List<CastReview.Finding> findings = CastReview.of(workload, target, text(file));
    out.print(summary(workload, seed == null ? seedOf(workload) : seed));
    findings.stream().filter(f -> !f.problem()).forEach(out::println);
    out.flush();
    List<Problem> problems = new ArrayList<>();
    findings.stream().filter(CastReview.Finding::problem).forEach(f -> problems.add(f.toProblem()));
    String on = server == null ? "" : " on " + server.where();
    if (server != null) {
      // a query whose cast was already found wrong needs no second word from the server
      java.util.Set<String> judged = new java.util.HashSet<>();
      problems.forEach(p -> judged.add(p.path()));
      for (Problem p : server.prepare(CastReview.adapt(workload, target))) {
        if (!judged.contains(p.path())) {
          problems.add(p);
        }
      }
      problems.sort(
          java.util.Comparator.comparingInt((Problem p) -> p.location().line())
              .thenComparingInt(p -> p.location().column()));
    }
    if (!problems.isEmpty()) {
      return problems(problems, file, on, err);
    }
    int n = workload.queries().size();
    out.println(
        file
            + ": OK"
            + (server == null
                ? ""
                : ", " + n + " quer" + (n == 1 ? "y" : "ies") + " prepared" + on));
    out.flush();
    return OK;
  }

  /** Prints the problems and the verdict that counts them. */
  private static int problems(List<Problem> problems, Path file, String on, PrintWriter err) {
    problems.forEach(err::println);
    int n = problems.size();
    err.println(n + " problem" + (n == 1 ? "" : "s") + " found in " + file + on);
    err.flush();
    return USER_ERROR;
  }

  /** The file's text, for the casts' lines and columns; null when it cannot be read again. */
  private static String text(Path file) {
    try {
      return java.nio.file.Files.readString(file);
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /** The load section in one line: {@code rate mode, 200/s for 1m, spike to 1000/s}. */
  static String describe(Load load) {
    List<String> parts = new ArrayList<>();
    parts.add((load.mode() == RunSettings.Mode.QUEUE ? "queue" : "rate") + " mode");
    if (load.users() != null) {
      parts.add(load.users() + " users");
    }
    String duration =
        load.duration() == null ? null : "for " + SettingValues.formatDuration(load.duration());
    if (load.rate() != null) {
      parts.add(fmt(load.rate()) + "/s" + (duration == null ? "" : " " + duration));
    } else if (duration != null) {
      parts.add(duration);
    }
    if (load.spike() != null) {
      parts.add("spike to " + fmt(load.spike().peak()) + "/s");
    }
    if (!load.stages().isEmpty()) {
      parts.add(stages(load.stages()));
    }
    return String.join(", ", parts);
  }

  /** {@code stages 0..200/PT10S, ...}: the same words for queries, topics and logs. */
  private static String stages(List<RunSettings.Stage> stages) {
    return "stages " + String.join(", ", stages.stream().map(RunSettings.Stage::toString).toList());
  }

  /**
   * Prints generated rows of one table.
   *
   * @param file the workload file
   * @param table the table name
   * @param rows how many rows
   * @param format the output format
   * @param seed the seed, or null for the file's (or the default)
   * @param environment the lookup of {@code ${env:NAME}} variables
   * @param out where the rows go
   * @param err where problems go
   * @return {@link #OK} or {@link #USER_ERROR}
   */
  public static int sample(
      Path file,
      String table,
      long rows,
      RowFormat format,
      Long seed,
      Function<String, String> environment,
      PrintWriter out,
      PrintWriter err) {
    try {
      if (rows < 0) {
        throw new FusilladeException("--rows must be >= 0, got " + rows);
      }
      Workload workload = WorkloadLoader.load(file, environment).orThrow();
      WorkloadData data = new WorkloadData(workload, seed == null ? seedOf(workload) : seed);
      RowGenerator generator = data.rows(table);
      RowSampler.write(generator, rows, format, out);
      return OK;
    } catch (FusilladeException e) {
      out.flush();
      err.println(e.getMessage());
      err.flush();
      return USER_ERROR;
    }
  }

  private static long seedOf(Workload workload) {
    return workload.seed().orElse(Workload.DEFAULT_SEED);
  }

  /**
   * @param workload a valid workload
   * @param seed the seed in use
   * @return a human-readable summary, one screen for typical files
   */
  public static String summary(Workload workload, long seed) {
    StringBuilder sb = new StringBuilder();
    sb.append(workload.file())
        .append(": workload ")
        .append(workload.name())
        .append(", seed ")
        .append(seed)
        .append('\n');
    workload
        .connection()
        .ifPresent(
            c ->
                sb.append("connection: ")
                    .append(c.urls().size())
                    .append(" url")
                    .append(c.urls().size() == 1 ? "" : "s")
                    .append(c.user() == null ? "" : ", user set")
                    .append(c.password() == null ? "" : ", password set")
                    .append('\n'));
    sb.append("tables: ").append(workload.tables().size()).append('\n');
    for (Table t : workload.tables()) {
      sb.append("  ").append(t.name()).append(": ").append(t.rowCount()).append(" rows");
      if (!t.primaryKeys().isEmpty()) {
        sb.append(", primary key (").append(String.join(", ", t.primaryKeys())).append(')');
      }
      sb.append(options(t.vendorOptions())).append('\n');
      for (ValueSpec c : t.columns()) {
        sb.append("    ").append(describe(c)).append('\n');
      }
      for (GeneratedColumn g : t.generated()) {
        sb.append("    ")
            .append(g.name())
            .append(": ")
            .append(g.type().type().label())
            .append(", generated as ")
            .append(g.expression())
            .append('\n');
      }
    }
    sb.append("indexes: ").append(workload.indexes().size()).append('\n');
    for (Index i : workload.indexes()) {
      sb.append("  ")
          .append(i.name())
          .append(" on ")
          .append(i.table())
          .append(" (")
          .append(String.join(", ", i.columns()))
          .append(')')
          .append(i.unique() ? ", unique" : "")
          .append(options(i.vendorOptions()))
          .append('\n');
    }
    int queue = workload.queries().stream().mapToInt(Query::count).sum();
    sb.append("queries: ")
        .append(workload.queries().size())
        .append(", queue of ")
        .append(queue)
        .append('\n');
    for (Query q : workload.queries()) {
      String sql = q.sql().replaceAll("\\s+", " ").strip();
      sb.append("  ")
          .append(q.name())
          .append(" x")
          .append(q.count())
          .append(q.tags().isEmpty() ? "" : " " + q.tags())
          .append(": ")
          .append(
              q.isTransaction() ? "transaction of " + q.statements().size() + " statements, " : "")
          .append(sql.length() > 60 ? sql.substring(0, 57) + "..." : sql)
          .append('\n');
      for (ValueSpec p : q.params()) {
        sb.append("    ").append(describe(p)).append('\n');
      }
    }
    if (!workload.queries().isEmpty() && !workload.load().equals(Load.NONE)) {
      sb.append("load: ").append(describe(workload.load())).append('\n');
    }
    workload.logs().ifPresent(l -> sb.append(describe(l)));
    if (!workload.topics().isEmpty()) {
      sb.append("kafka: ")
          .append(
              workload
                  .kafka()
                  .map(KafkaConnection::bootstrapServers)
                  .filter(b -> b != null)
                  .orElse("embedded"))
          .append('\n');
      sb.append("topics: ").append(workload.topics().size()).append('\n');
      for (TopicWorkload t : workload.topics()) {
        sb.append("  ")
            .append(t.name())
            .append(": ")
            .append(t.partitions())
            .append(" partitions, replication ")
            .append(t.replication())
            .append(", ")
            .append(t.consumers())
            .append(" consumers, ")
            .append(
                !t.stages().isEmpty()
                    ? stages(t.stages())
                    : t.steps() != null
                        ? "steps from "
                            + fmt(t.steps().start())
                            + "/s by "
                            + fmt(t.steps().increment())
                            + " x"
                            + t.steps().count()
                            + " of "
                            + t.steps().duration().toSeconds()
                            + " s"
                        : fmt(t.rate()) + "/s for " + t.duration().toSeconds() + " s")
            .append('\n');
        sb.append("    ").append(describe(t.messageSize())).append('\n');
        t.key().ifPresent(k -> sb.append("    ").append(describe(k)).append('\n'));
      }
    }
    if (!workload.checks().isEmpty()) {
      sb.append("checks: ")
          .append(String.join("; ", workload.checks().stream().map(CheckText::text).toList()))
          .append('\n');
    }
    return sb.toString();
  }

  private static String describe(LogsSection l) {
    StringBuilder sb = new StringBuilder("logs: profile ").append(l.profile());
    sb.append(", index ")
        .append(l.index())
        .append(" (mapping ")
        .append(l.mapping())
        .append(", ")
        .append(l.shards())
        .append(l.shards() == 1 ? " shard, " : " shards, ")
        .append(l.replicas())
        .append(l.replicas() == 1 ? " replica)" : " replicas)")
        .append(" on ")
        .append(
            l.urls().isEmpty()
                ? (l.seqDb() ? "an embedded seq-db" : "an embedded OpenSearch")
                : l.urls().size()
                    + " url"
                    + (l.urls().size() == 1 ? "" : "s")
                    + (l.target().equals(LogsNames.TARGETS.get(0)) ? "" : " (" + l.target() + ")"))
        .append(l.user() == null ? "" : ", user and password set")
        .append(l.apiKey() == null ? "" : ", API key set")
        .append('\n');
    LogIngest ingest = l.ingest();
    sb.append("  ingest: ");
    switch (ingest.mode()) {
      case DOCS ->
          sb.append(ingest.docs())
              .append(" docs by ")
              .append(l.concurrency())
              .append(l.concurrency() == 1 ? " user" : " users");
      case RATE ->
          sb.append(fmt(ingest.rate()))
              .append(" bulks/s for ")
              .append(ingest.duration().toString().substring(2).toLowerCase(Locale.ROOT));
      case STEPS ->
          sb.append("steps of ")
              .append(ingest.steps().stream().map(WorkloadCommands::fmt).toList())
              .append(" bulks/s, ")
              .append(ingest.stepDuration().toString().substring(2).toLowerCase(Locale.ROOT))
              .append(" each");
      case STAGES -> sb.append(stages(ingest.stages())).append(" (bulks/s)");
    }
    sb.append(", bulks of ")
        .append(l.bulkSize())
        .append(l.gzip() ? ", gzip" : "")
        .append(l.timeToSearchable() ? ", time-to-searchable" : "")
        .append('\n');
    if (!l.searches().isEmpty()) {
      sb.append("  searches: ")
          .append(String.join(", ", l.searches().stream().map(LogSearch::name).toList()))
          .append('\n');
    }
    return sb.toString();
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String describe(ValueSpec c) {
    StringBuilder sb = new StringBuilder(c.name()).append(": ").append(c.type().label());
    switch (c.type()) {
      case CONSTANT -> sb.append(' ').append(c.constant());
      case BOOLEAN -> sb.append(", p(true) = ").append(c.probability());
      case UUID -> {}
      case CHOICE -> {
        sb.append(" of ").append(c.choices());
        if (!c.weights().isEmpty()) {
          sb.append(", weights ").append(c.weights());
        } else {
          sb.append(", ").append(c.distribution());
        }
      }
      default -> {
        sb.append(", ").append(c.distribution());
        if (c.type() == ValueType.DOUBLE) {
          sb.append(" over [")
              .append(c.lower() == null ? 0 : c.lower())
              .append(", ")
              .append(c.upper() == null ? 1 : c.upper())
              .append(']');
        } else if (c.lower() != null) {
          sb.append(" over [").append(c.lower()).append(", ").append(c.upper()).append(']');
        }
        if (c.type() == ValueType.STRING) {
          sb.append(", ").append(c.minLength()).append("..").append(c.maxLength()).append(" chars");
        }
        if (c.type() == ValueType.DECIMAL) {
          sb.append(", decimal(").append(c.precision()).append(", ").append(c.scale()).append(')');
        }
      }
    }
    if (c.unique()) {
      sb.append(", unique");
      if (c.distribution().kind() != Distribution.Kind.SEQUENTIAL
          && c.distribution().kind() != Distribution.Kind.UNIFORM
          && c.type().isDiscreteRange()) {
        sb.append(" (a permutation of the range: the distribution's shape does not apply)");
      }
    }
    if (c.nullPercentage() > 0) {
      sb.append(", ").append(c.nullPercentage()).append("% null");
    }
    if (c.repeat() > 1) {
      sb.append(", each value for ").append(c.repeat()).append(" rows");
    }
    if (c.array() != null) {
      sb.append(", arrays of ")
          .append(c.array().min())
          .append(c.array().max() == c.array().min() ? "" : ".." + c.array().max());
    }
    return sb.toString();
  }

  private static String options(Map<String, Object> vendorOptions) {
    if (vendorOptions.isEmpty()) {
      return "";
    }
    List<String> parts =
        vendorOptions.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.toList());
    return " [vendor: " + String.join(", ", parts) + "]";
  }
}
