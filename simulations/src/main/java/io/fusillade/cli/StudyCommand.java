package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.plan.ExitCode;
import io.fusillade.plan.RunPlan;
import io.fusillade.workload.LogSearch;
import io.fusillade.workload.LogsNames;
import io.fusillade.workload.LogsSection;
import io.fusillade.workload.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade study log-stores}: seed 002's comparison of log stores in one command. The same
 * workload (its seeded data set, mapping and reads) runs on each store in turn, each embedded and
 * started for its run in processes of its own, so that the injector and the server are measured
 * apart; then one table sets the stores side by side ({@link LogStoreStudy}) and one page holds it
 * with both runs' reports.
 *
 * <p>{@code log-stores} is {@code workloads/studies/log-stores.yml} under the working directory, or
 * the copy inside Fusillade; a path to a YAML file runs that one. It composes the option groups of
 * {@code fusillade run} that apply to a logs workload on stores it starts itself ({@code --seed},
 * {@code --seqdb-binary}, {@code --check}...), planned for each store by {@link RunPlanner} as a
 * run is.
 */
@Command(
    name = "study",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a study: one workload on several stores in turn, side by side.",
      "log-stores (workloads/studies/log-stores.yml): seed 002's web logs written to an embedded",
      "OpenSearch, then an embedded seq-db, each in processes of its own; then the six reads on",
      "each. Prints one table: logs/s, MiB/s, CPU-s and peak RSS of each server and of the",
      "injector during the write, time-to-searchable p50/p99, avg/p50/p95 of each read, and the",
      "ratio of the second store to the first; whether every read agreed with the generator's",
      "counts, and each run's checks. OUTPUT/study-TIME/index.html holds the table and both",
      "reports. Exit code 3 when a check failed or a read disagreed.",
      "analytics (workloads/studies/analytics-ladder.yml): seed 4's CPU over-subscription: the",
      "TPC-DS-derived lite set as a ladder (levels 1,2,4,8 x 3 repeats) on the embedded",
      "PostgreSQL, first unconstrained, then starved of CPU; prints the set's time per level for",
      "both, the %% change with compare's verdict, the median %%, CPU and steal, the server's log",
      "warnings and the failed runs marked x.",
      "streaming (workloads/studies/streaming.yml): seed 000's maximum speed and minimum time on",
      "one topic (RF 3 on the embedded 3-broker cluster, acks=all, compression off, writers and",
      "readers at once), in one run: an idle step at 100 Kbit/s, the limit search, then a step at",
      "1/3 of the maximum (fusillade limit --then-latency-at 0.33); prints max MB/s, idle p50 and",
      "p50 at 1/3 of max end to end, each with how it was obtained. Exit code 3 when the read lag",
      "grew in a step."
    })
final class StudyCommand implements Callable<Integer> {
  /** The studies Fusillade ships, by name. */
  /** The studies' files, in the order the error message lists them (a Set's order varies). */
  static final List<String> STUDIES = List.of("log-stores", "analytics-ladder", "streaming");

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "STUDY",
      description =
          "log-stores (workloads/studies/log-stores.yml), analytics"
              + " (workloads/studies/analytics-ladder.yml), streaming"
              + " (workloads/studies/streaming.yml), or a study's YAML file.")
  Path file;

  @Option(
      names = "--levels",
      split = ",",
      paramLabel = "N",
      description = "analytics: the ladder's levels (default the study file's, 1,2,4,8).")
  List<Integer> levels;

  @Option(
      names = "--repeats",
      paramLabel = "N",
      description = "analytics: runs per level (default the study file's, 3).")
  Integer repeats;

  @Option(
      names = "--queries",
      paramLabel = "SET",
      description = "analytics: the query set, tags or names (default the study file's, lite).")
  String queries;

  @Option(
      names = "--starve",
      paramLabel = "SPEC",
      description =
          "analytics: the starved ladder's CPU starvation (default the study file's,"
              + " cpu=1,burners=2; see fusillade ladder --starve).")
  String starve;

  @Option(
      names = "--stores",
      split = ",",
      paramLabel = "STORE",
      description =
          "The stores, in order (default opensearch,seq-db; the ratio is the second's over the"
              + " first's).")
  List<String> stores = new ArrayList<>(List.of("opensearch", "seq-db"));

  @Mixin RateOptions rate = new RateOptions();
  @Mixin LogsOptions logs = new LogsOptions();
  @Mixin CheckOptions checks = new CheckOptions();
  @Mixin RunControlOptions control = new RunControlOptions();
  @Mixin OutputOptions outputs = new OutputOptions();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    outputs.refuseBucket("study");
    if (AnalyticsStudy.is(file)) {
      Path study =
          file.toString().startsWith("analytics") && !Files.isRegularFile(file)
              ? resolve(Path.of("analytics-ladder"))
              : file;
      AnalyticsStudy.Settings s = AnalyticsStudy.Settings.read(study);
      s =
          new AnalyticsStudy.Settings(
              s.workload(),
              queries != null ? queries : s.queries(),
              levels != null ? levels : s.levels(),
              repeats != null ? repeats : s.repeats(),
              s.scale(),
              starve != null ? starve : s.starve());
      if (s.repeats() < 1 || s.levels().stream().anyMatch(l -> l == null || l < 1)) {
        throw new FusilladeException("--levels and --repeats must be whole numbers >= 1");
      }
      return AnalyticsStudy.run(s, outputs.output, out, err);
    }
    if (StreamingStudy.is(file)) {
      return streaming(out, err);
    }
    if (levels != null || repeats != null || queries != null || starve != null) {
      throw new FusilladeException(
          "--levels, --repeats, --queries and --starve are the analytics study's");
    }
    if (logs.target != null) {
      throw new FusilladeException(
          "--target does not apply to fusillade study: --stores names them");
    }
    List<String> targets = new ArrayList<>();
    for (String store : stores) {
      targets.add(
          LogsNames.target(store)
              .orElseThrow(
                  () ->
                      new FusilladeException(
                          "--stores: unknown store '"
                              + store
                              + "' (one of "
                              + String.join(", ", LogsNames.TARGETS)
                              + ")")));
    }
    Path workloadFile = resolve(file);
    RunInputs in =
        new RunInputs(
            "study",
            workloadFile,
            null,
            new TargetOptions(), // the study starts its stores: no --url
            null,
            null,
            null,
            logs,
            rate,
            null,
            null,
            control,
            checks,
            outputs);
    RunPlanner.validateGroups(in);
    Workload workload = WorkloadFiles.load(workloadFile);
    LogsSection section =
        workload
            .logs()
            .orElseThrow(
                () -> new FusilladeException(workloadFile + ": a study needs a logs section"));
    if (!section.urls().isEmpty()) {
      throw new FusilladeException(
          workloadFile + ": a study starts its stores itself; remove the logs section's urls");
    }
    in = in.withWorkload(workload);
    List<String> reads = section.searches().stream().map(LogSearch::name).toList();
    Path directory =
        outputs.output.resolve(
            "study-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(directory);
    Map<String, Path> runs = new LinkedHashMap<>();
    ExitCode worst = ExitCode.OK;
    try {
      for (String store : targets) {
        out.println("Fusillade study: " + workloadFile.getFileName() + " on " + store);
        out.flush();
        logs.target = store;
        OutputOptions storeOutputs = outputs.into(directory.resolve(store));
        RunInputs onStore = in.withOutputs(storeOutputs);
        RunPlanner.Planned planned = RunPlanner.plan(onStore, null, null, out);
        // each store in processes of its own: the injector and the server measured apart
        RunPlan plan = planned.plan().withLogs(planned.plan().logs().apart());
        ForkedRun.Outcome outcome = ForkedRun.run(planned.runner(), plan, storeOutputs, out, err);
        ExitLine.print(outcome, out, err);
        if (outcome.record().isEmpty()
            || (outcome.code() != ExitCode.OK && outcome.code() != ExitCode.CHECK_FAILED)) {
          err.println(
              "fusillade: the study stopped at " + store + ": exit code " + outcome.code().code());
          return outcome.code() == ExitCode.OK ? ExitCode.FAILED.code() : outcome.code().code();
        }
        runs.put(store, outcome.record().get());
        if (outcome.code() != ExitCode.OK) {
          worst = outcome.code();
        }
      }
    } finally {
      logs.target = null;
    }
    LogStoreStudy table = LogStoreStudy.of(runs, reads);
    out.println();
    out.print(table.table());
    out.println();
    table.verdicts().forEach(out::println);
    Path page = StudyPage.write(directory, table, runs, commandLine());
    out.println("Study: " + page);
    out.flush();
    return table.passed() && worst == ExitCode.OK
        ? ExitCode.OK.code()
        : ExitCode.CHECK_FAILED.code();
  }

  /**
   * Seed 000's streaming study: {@code fusillade limit --then-latency-at} on the study's topic
   * workload. Only {@code --seed} and {@code --output} apply: the others of this command are the
   * log stores' or the analytics study's, refused here before anything runs.
   */
  private int streaming(PrintWriter out, PrintWriter err) {
    if (levels != null || repeats != null || queries != null || starve != null) {
      throw new FusilladeException(
          "--levels, --repeats, --queries and --starve are the analytics study's");
    }
    String why =
        "do not apply to the streaming study (fusillade limit --then-latency-at on its topic"
            + " workload: the study's file sets the search and its steps)";
    rate.refuse(why);
    logs.refuse(why);
    checks.refuse(why);
    List<String> given = new ArrayList<>(control.given());
    given.remove("--seed");
    outputs.given().stream().filter(o -> !o.equals("--output")).forEach(given::add);
    if (spec.commandLine().getParseResult().hasMatchedOption("--stores")) {
      given.add("--stores");
    }
    if (!given.isEmpty()) {
      throw new FusilladeException(String.join(", ", given) + " " + why);
    }
    Path study = file.toString().equals("streaming") ? resolve(file) : file;
    List<String> extra = new ArrayList<>();
    if (control.seed != null) {
      extra.addAll(List.of("--seed", String.valueOf(control.seed)));
    }
    return StreamingStudy.run(study, extra, outputs.output, out, err);
  }

  /** The command as typed, for the page: {@code fusillade study log-stores ...}. */
  private String commandLine() {
    return "fusillade study "
        + String.join(" ", spec.commandLine().getParseResult().originalArgs());
  }

  /**
   * A study's file: a YAML path as given; a study's name as {@code workloads/studies/NAME.yml}
   * under the working directory, else Fusillade's own copy (written to a temporary file).
   */
  static Path resolve(Path given) {
    String name = given.toString();
    if (name.endsWith(".yml") || name.endsWith(".yaml") || Files.isRegularFile(given)) {
      return given;
    }
    if (!STUDIES.contains(name)) {
      throw new FusilladeException(
          "unknown study '" + name + "' (one of log-stores, analytics, streaming), or a YAML file");
    }
    Path local = Path.of("workloads", "studies", name + ".yml");
    if (Files.isRegularFile(local)) {
      return local;
    }
    try (InputStream bundled =
        StudyCommand.class.getResourceAsStream("/io/fusillade/studies/" + name + ".yml")) {
      if (bundled == null) {
        throw new FusilladeException("no study file " + local + " here, and none inside Fusillade");
      }
      Path copy = Files.createTempFile("fusillade-study-", "-" + name + ".yml");
      copy.toFile().deleteOnExit();
      Files.write(copy, bundled.readAllBytes());
      return copy;
    } catch (IOException e) {
      throw new FusilladeException("cannot read the study " + name + ": " + e.getMessage());
    }
  }

  /** The study's page, {@code index.html}: the table, the verdicts, and each run's report. */
  static final class StudyPage {
    private StudyPage() {}

    static Path write(Path directory, LogStoreStudy table, Map<String, Path> runs, String command)
        throws IOException {
      StringBuilder html = new StringBuilder();
      html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">")
          .append("<title>Fusillade study: log stores</title>")
          .append("<style>body{font-family:sans-serif;margin:2em}")
          .append("table.study{border-collapse:collapse}")
          .append("table.study td,table.study th{border:1px solid #ccc;padding:3px 8px;")
          .append("text-align:right}table.study td:first-child{text-align:left}")
          .append("iframe{width:100%;height:900px;border:1px solid #ccc}</style></head><body>\n")
          .append("<h1>Log stores, side by side</h1>\n<p><code>")
          .append(LogStoreStudy.escape(command))
          .append("</code></p>\n")
          .append(table.htmlTable())
          .append("<ul>\n");
      for (String line : table.verdicts()) {
        html.append("<li>").append(LogStoreStudy.escape(line)).append("</li>\n");
      }
      html.append("</ul>\n");
      for (LogStoreStudy.Side side : table.sides()) {
        Path report = side.run().resolve("report");
        side.report().write(report);
        String link = directory.relativize(report.resolve("index.html")).toString();
        html.append("<h2>")
            .append(LogStoreStudy.escape(side.store()))
            .append(": <a href=\"")
            .append(link)
            .append("\">")
            .append(LogStoreStudy.escape(side.run().getFileName().toString()))
            .append("</a></h2>\n<iframe src=\"")
            .append(link)
            .append("\"></iframe>\n");
      }
      html.append("</body></html>\n");
      Path page = directory.resolve("index.html");
      Files.writeString(page, html, StandardCharsets.UTF_8);
      return page;
    }
  }
}
