package io.fusillade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fusillade.FusilladeException;
import io.fusillade.plan.ExitCode;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.workload.WorkloadLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * {@code fusillade study analytics}: seed 4's CPU over-subscription study on one machine. Two
 * ladders of the same query set ({@link LadderCommand}, each on an embedded PostgreSQL of its own,
 * filled alike from the seed): first unconstrained, the baseline; then with the server starved of
 * CPU ({@code --starve}) and compared with the baseline level by level. Then the seed's table
 * ({@link AnalyticsTable}).
 *
 * <p>The study's file ({@code workloads/studies/analytics-ladder.yml}) gives the workload (relative
 * to the file), the query set, the levels, the repeats, the scale and the starvation; the command
 * line's {@code --levels}, {@code --repeats}, {@code --queries} and {@code --starve} win over it.
 */
final class AnalyticsStudy {
  private AnalyticsStudy() {}

  /** The study's settings. */
  record Settings(
      Path workload,
      String queries,
      List<Integer> levels,
      int repeats,
      Double scale,
      String starve) {

    /** Reads the study's file; a mistake names the file and the key. */
    static Settings read(Path file) {
      JsonNode root;
      try {
        root = new YAMLMapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new FusilladeException(file + ": not a study file: " + e.getMessage());
      }
      if (root == null || !"analytics".equals(root.path("study").asText())) {
        throw new FusilladeException(file + ": 'study: analytics' expected");
      }
      String workload = text(file, root, "workload");
      Path dir = file.toAbsolutePath().getParent();
      Path resolved = dir.resolve(workload).normalize();
      if (!Files.isRegularFile(resolved)
          && Files.isRegularFile(Path.of("workloads", "tpcds.yml"))) {
        resolved = Path.of("workloads", "tpcds.yml"); // the bundled copy of the study: this one
      }
      if (!Files.isRegularFile(resolved)) {
        throw new FusilladeException(
            file
                + ": workload "
                + workload
                + " not found (run the study from Fusillade's directory, where"
                + " workloads/tpcds.yml is)");
      }
      List<Integer> levels = new ArrayList<>();
      root.path("levels").forEach(n -> levels.add(n.asInt()));
      if (levels.isEmpty() || levels.stream().anyMatch(l -> l < 1)) {
        throw new FusilladeException(file + ": levels must be a list of numbers >= 1");
      }
      int repeats = root.path("repeats").asInt(3);
      Double scale = root.has("scale") ? root.path("scale").asDouble() : null;
      return new Settings(
          resolved,
          text(file, root, "queries"),
          levels,
          repeats,
          scale,
          text(file, root, "starve"));
    }

    private static String text(Path file, JsonNode root, String key) {
      JsonNode n = root.get(key);
      if (n == null || n.asText().isBlank()) {
        throw new FusilladeException(file + ": the study needs its '" + key + "'");
      }
      return n.asText();
    }
  }

  /** Whether {@code file} is an analytics study (by name, or by its {@code study:} key). */
  static boolean is(Path given) {
    String name = given.toString();
    if (name.equals("analytics") || name.equals("analytics-ladder")) {
      return true;
    }
    try {
      return Files.isRegularFile(given)
          && Files.readString(given).lines().anyMatch(l -> l.strip().equals("study: analytics"));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Runs both ladders and prints the table.
   *
   * @return the exit code: 0 when both ladders ran (a starved level worse than the baseline is the
   *     study's finding, not a failure), else the first ladder's that could not
   */
  static int run(Settings s, Path output, PrintWriter out, PrintWriter err) throws IOException {
    RunPlanner.starveMechanism(
        "the study's starve", io.fusillade.starve.CpuStarve.parse(s.starve()));
    Path directory =
        output.resolve(
            "study-analytics-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    Files.createDirectories(directory);
    String previous = System.getProperty(WorkloadLoader.SCALE_PROPERTY);
    try {
      if (s.scale() != null && previous == null) {
        System.setProperty(WorkloadLoader.SCALE_PROPERTY, String.valueOf(s.scale()));
      }
      out.println(
          "Fusillade study: analytics: "
              + s.workload()
              + " --queries "
              + s.queries()
              + ", levels "
              + s.levels()
              + " x "
              + s.repeats()
              + " repeats, scale "
              + System.getProperty(WorkloadLoader.SCALE_PROPERTY, "of the file")
              + "; baseline, then starved ("
              + s.starve()
              + ")");
      out.flush();
      Path baseline = ladder(s, directory.resolve("baseline"), null, out, err);
      if (baseline == null) {
        return ExitCode.FAILED.code();
      }
      Path starved = ladder(s, directory.resolve("starved"), baseline, out, err);
      if (starved == null) {
        return ExitCode.FAILED.code();
      }
      List<RunData> b = RunMetrics.load(List.of(baseline));
      List<RunData> st = RunMetrics.load(List.of(starved));
      AnalyticsTable table = AnalyticsTable.of(b, st);
      String text = table.render(s.starve());
      out.println();
      out.print(text);
      Files.writeString(directory.resolve("table.txt"), text, StandardCharsets.UTF_8);
      out.println("Study: " + directory);
      out.flush();
      return ExitCode.OK.code();
    } finally {
      if (previous == null) {
        System.clearProperty(WorkloadLoader.SCALE_PROPERTY);
      }
    }
  }

  /** Runs one ladder into {@code into}; its directory, or null when it could not run. */
  private static Path ladder(Settings s, Path into, Path baseline, PrintWriter out, PrintWriter err)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            s.workload().toString(),
            "--queries",
            s.queries(),
            "--levels",
            String.join(",", s.levels().stream().map(String::valueOf).toList()),
            "--repeats",
            String.valueOf(s.repeats()),
            "--output",
            into.toString()));
    if (baseline != null) {
      args.addAll(List.of("--starve", s.starve(), "--baseline", baseline.toString()));
    }
    out.println();
    out.println("Fusillade study: " + (baseline == null ? "baseline" : "starved") + " ladder");
    out.flush();
    int code =
        new CommandLine(new LadderCommand())
            .setOut(out)
            .setErr(err)
            .setExecutionExceptionHandler(
                (e, cl, parsed) -> {
                  err.println("fusillade: " + e.getMessage());
                  return ExitCode.FAILED.code();
                })
            .execute(args.toArray(String[]::new));
    if (code != ExitCode.OK.code() && code != ExitCode.CHECK_FAILED.code()) {
      err.println("fusillade: the study stopped: its ladder ended with exit code " + code);
      return null;
    }
    try (Stream<Path> dirs = Files.list(into)) {
      return dirs.filter(d -> d.getFileName().toString().startsWith("ladder-"))
          .findFirst()
          .orElse(null);
    }
  }
}
