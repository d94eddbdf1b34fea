package io.fusillade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.fusillade.FusilladeException;
import io.fusillade.plan.ExitCode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;

/**
 * {@code fusillade study streaming}: seed 000's "maximum speed" and "minimum time" scenarios on one
 * topic, in one run and one record: {@code fusillade limit WORKLOAD --then-latency-at 0.33} ({@link
 * LimitCommand}), whose idle step, search and step at a third of the maximum print the seed's three
 * figures ({@link StreamingFigures}).
 *
 * <p>The study's file ({@code workloads/studies/streaming.yml}) gives the topic workload (relative
 * to the file; its {@code limit:} section sets the search) and the chain: {@code then_latency_at},
 * {@code idle}, {@code idle_rate}, {@code latency_step}, and optionally the search's {@code from},
 * {@code max}, {@code step} and {@code confirm} over the workload's. Each is handed to {@code
 * fusillade limit} as its option, so a value a user may not give there is refused the same way.
 */
final class StreamingStudy {
  private StreamingStudy() {}

  /** The study's keys, and the option of {@code fusillade limit} each is. */
  private static final Map<String, String> OPTIONS = options();

  private static Map<String, String> options() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("then_latency_at", "--then-latency-at");
    m.put("idle", "--idle");
    m.put("idle_rate", "--idle-rate");
    m.put("latency_step", "--latency-step");
    m.put("from", "--from");
    m.put("max", "--max");
    m.put("step", "--step");
    m.put("confirm", "--confirm");
    return m;
  }

  private static final Set<String> OTHER_KEYS = Set.of("study", "workload");

  /** Whether {@code given} is the streaming study (by name, or by its {@code study:} key). */
  static boolean is(Path given) {
    String name = given.toString();
    if (name.equals("streaming")) {
      return true;
    }
    try {
      return Files.isRegularFile(given)
          && Files.readString(given).lines().anyMatch(l -> l.strip().equals("study: streaming"));
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * The arguments of {@code fusillade limit} the study's file gives: the workload first, then each
   * setting as its option.
   *
   * @throws FusilladeException naming the file and the key of a mistake
   */
  static List<String> arguments(Path file) {
    JsonNode root;
    try {
      root = new YAMLMapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new FusilladeException(file + ": not a study file: " + e.getMessage());
    }
    if (root == null || !"streaming".equals(root.path("study").asText())) {
      throw new FusilladeException(file + ": 'study: streaming' expected");
    }
    for (Iterator<String> keys = root.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!OPTIONS.containsKey(key) && !OTHER_KEYS.contains(key)) {
        throw new FusilladeException(
            file
                + ": unknown key '"
                + key
                + "' (one of study, workload, "
                + String.join(", ", OPTIONS.keySet())
                + ")");
      }
    }
    JsonNode workload = root.get("workload");
    if (workload == null || workload.asText().isBlank()) {
      throw new FusilladeException(file + ": the study needs its 'workload' (a topic workload)");
    }
    Path resolved = file.toAbsolutePath().getParent().resolve(workload.asText()).normalize();
    Path bundled = Path.of("workloads").resolve(Path.of(workload.asText()).getFileName());
    if (!Files.isRegularFile(resolved) && Files.isRegularFile(bundled)) {
      resolved = bundled; // the bundled copy of the study: the workload of this directory
    }
    if (!Files.isRegularFile(resolved)) {
      throw new FusilladeException(
          file
              + ": workload "
              + workload.asText()
              + " not found (run the study from Fusillade's directory, where workloads/ is)");
    }
    List<String> args = new ArrayList<>(List.of(resolved.toString()));
    if (!root.has("then_latency_at")) {
      args.addAll(List.of("--then-latency-at", "0.33")); // the seed's "about 1/3 of the maximum"
    }
    for (Map.Entry<String, String> option : OPTIONS.entrySet()) {
      JsonNode value = root.get(option.getKey());
      if (value != null && !value.isNull()) {
        if (!value.isValueNode() || value.asText().isBlank()) {
          throw new FusilladeException(
              file + ": " + option.getKey() + " must be one value, as " + option.getValue());
        }
        args.addAll(List.of(option.getValue(), value.asText()));
      }
    }
    return args;
  }

  /**
   * Runs the study: {@code fusillade limit} with the file's arguments and {@code extra} (the
   * command line's), its output under {@code output}.
   *
   * @return the limit command's exit code
   */
  static int run(Path file, List<String> extra, Path output, PrintWriter out, PrintWriter err) {
    List<String> args = arguments(file);
    args.addAll(extra);
    args.addAll(List.of("--output", output.toString()));
    out.println("Fusillade study: streaming: fusillade limit " + String.join(" ", args));
    out.flush();
    return new CommandLine(new LimitCommand())
        .setOut(out)
        .setErr(err)
        .setParameterExceptionHandler(
            (e, given) -> {
              err.println("fusillade: " + file + ": " + e.getMessage());
              return ExitCode.USER_ERROR.code();
            })
        .setExecutionExceptionHandler(
            (e, cl, parsed) -> {
              throw e; // fusillade's own handler: one line and exit code 2 for a user's mistake
            })
        .execute(args.toArray(String[]::new));
  }
}
