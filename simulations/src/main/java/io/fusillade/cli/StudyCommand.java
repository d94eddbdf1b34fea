package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.scenarios.logs.LogsTarget;
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
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fusillade study log-stores}: seed 002's comparison of log stores in one command. The same
 * workload (its seeded data set, mapping and reads) runs on each store in turn, each embedded and
 * started for its run in processes of its own, so that the injector and the server are measured
 * apart; then one table sets the stores side by side ({@link LogStoreStudy}) and one page holds it
 * with both runs' reports.
 *
 * <p>{@code log-stores} is {@code workloads/studies/log-stores.yml} under the working directory, or
 * the copy inside Fusillade; a path to a YAML file runs that one. The run options of {@code
 * fusillade run} that apply to a logs workload apply to each run ({@code --seed}, {@code
 * --seqdb-binary}, {@code --check}...).
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
      "reports. Exit code 3 when a check failed or a read disagreed."
    })
final class StudyCommand extends RunCommand {
  /** The studies Fusillade ships, by name. */
  static final Set<String> STUDIES = Set.of("log-stores");

  @Option(
      names = "--stores",
      split = ",",
      paramLabel = "STORE",
      description =
          "The stores, in order (default opensearch,seq-db; the ratio is the second's over the first's).")
  List<String> stores = new ArrayList<>(List.of("opensearch", "seq-db"));

  @Override
  public Integer call() throws Exception {
    refuseBucket();
    if (logsTarget != null) {
      throw new FusilladeException(
          "--target does not apply to fusillade study: --stores names them");
    }
    if (database.urls != null && !database.urls.isEmpty()) {
      throw new FusilladeException(
          "--url does not apply to fusillade study: it compares the stores it starts itself");
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
    Path study = file;
    file = resolve(study);
    Workload workload = WorkloadFiles.load(file);
    LogsSection section =
        workload
            .logs()
            .orElseThrow(() -> new FusilladeException(file + ": a study needs a logs section"));
    if (!section.urls().isEmpty()) {
      throw new FusilladeException(
          file + ": a study starts its stores itself; remove the logs section's urls");
    }
    List<String> reads = section.searches().stream().map(LogSearch::name).toList();
    Path root = output;
    Path directory =
        root.resolve(
            "study-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(directory);
    PrintWriter out = spec.commandLine().getOut();
    Map<String, Path> runs = new LinkedHashMap<>();
    int worst = 0;
    try {
      for (String store : targets) {
        out.println("Fusillade study: " + file.getFileName() + " on " + store);
        out.flush();
        logsTarget = store;
        output = directory.resolve(store);
        Files.createDirectories(output);
        Set<Path> before = RunChecks.runs(output);
        int code = super.call();
        Optional<Path> run = RunChecks.newRun(output, before);
        if (run.isEmpty() || (code != 0 && code != FusilladeCommand.CHECK_FAILED)) {
          spec.commandLine()
              .getErr()
              .println("fusillade: the study stopped at " + store + ": exit code " + code);
          return code == 0 ? 1 : code;
        }
        runs.put(store, run.get());
        worst = Math.max(worst, code);
      }
    } finally {
      output = root;
      logsTarget = null;
      file = study;
    }
    LogStoreStudy table = LogStoreStudy.of(runs, reads);
    out.println();
    out.print(table.table());
    out.println();
    table.verdicts().forEach(out::println);
    Path page = StudyPage.write(directory, table, runs, commandLine());
    out.println("Study: " + page);
    out.flush();
    return table.passed() && worst == 0 ? 0 : FusilladeCommand.CHECK_FAILED;
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
          "unknown study '"
              + name
              + "' (one of "
              + String.join(", ", STUDIES)
              + "), or a YAML file");
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

  /** Each store in processes of its own: the injector and the server measured apart. */
  @Override
  Map<String, String> extraProperties() {
    return Map.of(LogsTarget.APART_PROPERTY, "true");
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
