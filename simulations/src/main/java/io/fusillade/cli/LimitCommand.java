package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitSettings;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.sql.SqlLimitRun;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fusillade limit WORKLOAD}: the maximum sustainable rate of a workload's queries, searched
 * in one run ({@link SqlLimitRun}); the run options of {@code fusillade run} that say where and how
 * to connect apply, those that set the load do not (the search sets it).
 */
@Command(
    name = "limit",
    mixinStandardHelpOptions = true,
    description = {
      "Finds the maximum sustainable rate of a workload.",
      "Its queries, its one topic's writes, or its log bulks: the rate doubles from --from until a step fails its objectives (--slo; default: errors",
      "< 1%%, rate >= 95%% of target, latency not growing), is bisected down to --resolution,",
      "and the rate found is confirmed by one more step. Each step is judged as it ends, its",
      "first --warm-up share left out; a step the injector cannot vouch for (its own lag, its",
      "own failures) is tried once more, then ends the search: the injector is then the",
      "limit, never the system.",
      "With a topic's readers, 'lag not growing' joins the defaults. The workload's limit:",
      "section gives what the options do not (one topic per file). One run record holds",
      "every step (fusillade summary, report, trend). Exit code 3 when the limit is below",
      "--expect-at-least, 5 when the injector was the limit; the connection options of",
      "fusillade run apply (--url, --user, --pool, --engine, --seed, --setup, --output...)."
    })
final class LimitCommand extends RunCommand {
  /** Exit code of a search the injector limited: the system's limit is not known. */
  static final int INJECTOR_LIMIT = 5;

  @Option(names = "--from", paramLabel = "RATE", description = "The first rate (default 100/s).")
  String from;

  @Option(
      names = "--max",
      paramLabel = "RATE",
      description = "The highest rate tried (default 1,000,000/s).")
  String max;

  @Option(names = "--growth", description = "The ramp's factor between two steps (default 2).")
  Double growth;

  @Option(
      names = "--step",
      paramLabel = "DURATION",
      description = "How long each step lasts (default 30s).")
  String step;

  @Option(
      names = "--warm-up",
      paramLabel = "SHARE",
      description = "The share of each step left out of its verdict: 20%%, 0.2 (default 20%%).")
  String warmUp;

  @Option(
      names = "--resolution",
      paramLabel = "SHARE",
      description = "Stop when the first failing rate is this close above a passing one (5%%).")
  String resolution;

  @Option(
      names = "--confirm",
      paramLabel = "DURATION",
      description = "How long the confirmation at the found rate lasts (default: a step).")
  String confirm;

  @Option(
      names = "--slo",
      paramLabel = "OBJECTIVE",
      description =
          "An objective every step must meet: 'p99 < 50ms', 'errors < 1%%', 'rate >= 95%% of"
              + " target', 'latency not growing' (repeatable; replaces the defaults).")
  List<String> slo = new ArrayList<>();

  @Option(
      names = "--lanes",
      description = "Requests in flight at most (default 1000, and what the pool holds).")
  Integer lanes;

  @Option(
      names = "--expect-at-least",
      paramLabel = "RATE",
      description = "Exit 3 when the limit found is below this rate: 5000/s, 5000.")
  String expectAtLeast;

  private LimitSettings settings;

  /** Options of fusillade run that set the load: the search sets it. */
  private static final List<String> LOAD_OPTIONS =
      List.of(
          "--mode",
          "--rate",
          "--duration",
          "--peak",
          "--rise",
          "--hold",
          "--fall",
          "--users",
          "--check");

  @Override
  public Integer call() throws Exception {
    refuseBucket();
    for (String option : LOAD_OPTIONS) {
      if (spec.commandLine().getParseResult().hasMatchedOption(option)) {
        throw new FusilladeException(
            option + " does not apply to fusillade limit: the search sets the load");
      }
    }
    Workload workload = WorkloadFiles.load(file);
    if (workload.topics().size() > 1) {
      throw new FusilladeException(
          file
              + ": fusillade limit searches one topic's writes; this workload has "
              + workload.topics().size()
              + " topics (put the one to search in a file of its own)");
    }
    LimitSettings base = workload.limit().orElse(LimitSettings.DEFAULTS);
    boolean readers = workload.topics().stream().anyMatch(t -> t.consumers() > 0);
    if (readers && slo.isEmpty() && base.slo().equals(LimitSettings.DEFAULT_SLO)) {
      // A topic with readers is sustainable only while they keep up.
      List<String> objectives = new ArrayList<>(LimitSettings.DEFAULT_SLO);
      objectives.add("lag not growing");
      base = base.withSlo(objectives);
    }
    settings = settings(base);
    rate("--expect-at-least", expectAtLeast);
    return super.call();
  }

  /** The options over {@code base}, each checked and named when wrong. */
  private LimitSettings settings(LimitSettings base) {
    Duration stepLength = duration("--step", step, base.step());
    try {
      return new LimitSettings(
          from != null ? rate("--from", from) : base.from(),
          max != null ? rate("--max", max) : base.max(),
          growth != null ? growth : base.growth(),
          stepLength,
          warmUp != null ? share("--warm-up", warmUp) : base.warmUp(),
          resolution != null ? share("--resolution", resolution) : base.resolution(),
          duration("--confirm", confirm, step != null ? stepLength : base.confirm()),
          slo.isEmpty() ? base.slo() : slo,
          lanes != null ? lanes : base.lanes(),
          base.maxSteps());
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
  }

  @Override
  Class<?> sqlSimulation(Mode mode) {
    return SqlLimitRun.class;
  }

  @Override
  Map<String, String> extraProperties() {
    Map<String, String> properties = new java.util.LinkedHashMap<>(settings.toProperties());
    properties.put(LimitSettings.SEARCH_PROPERTY, "true");
    return properties;
  }

  /** A limit run has no checks of its own: the search judges each step. */
  @Override
  List<String> checks(Workload workload, DefaultChecks defaults) {
    return List.of();
  }

  @Override
  int finished(Optional<Path> run, int code) throws Exception {
    if (code != 0 || run.isEmpty()) {
      return code;
    }
    Object recorded = RunRecordReader.read(run.get()).manifest().parameters().get("limit");
    if (!(recorded instanceof Map<?, ?> map) || map.get("verdict") == null) {
      return code;
    }
    LimitResult result = LimitResult.fromMap(map);
    PrintWriter err = spec.commandLine().getErr();
    Double expected = expectAtLeast == null ? null : rate("--expect-at-least", expectAtLeast);
    double reached = result.limit() != null ? result.limit() : result.sustained();
    if (result.verdict() == LimitResult.Verdict.INJECTOR_LIMIT
        && (expected == null || reached < expected)) {
      err.println(
          "fusillade: the injector was the limit, not the system: exit code " + INJECTOR_LIMIT);
      err.flush();
      return INJECTOR_LIMIT;
    }
    if (expected != null && reached < expected) {
      err.println(
          String.format(
              Locale.ROOT,
              "fusillade: the limit %s/s is below the expected %s/s: exit code %d",
              io.fusillade.limit.StepResult.rate(reached),
              io.fusillade.limit.StepResult.rate(expected),
              FusilladeCommand.CHECK_FAILED));
      err.flush();
      return FusilladeCommand.CHECK_FAILED;
    }
    return code;
  }

  /** A rate: {@code 5000}, {@code 5000/s}, {@code 2.5k/s}. */
  static double rate(String option, String text) {
    if (text == null) {
      return 0;
    }
    String t = text.strip().toLowerCase(Locale.ROOT);
    if (t.endsWith("/s")) {
      t = t.substring(0, t.length() - 2).strip();
    }
    double scale = 1;
    if (t.endsWith("k")) {
      scale = 1000;
      t = t.substring(0, t.length() - 1);
    }
    try {
      double value = Double.parseDouble(t) * scale;
      if (value > 0 && Double.isFinite(value)) {
        return value;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new FusilladeException(
        option + ": \"" + text + "\" is not a rate above 0 (examples: 5000, 5000/s, 2.5k/s)");
  }

  private static double share(String option, String text) {
    String t = text.strip();
    try {
      return t.endsWith("%")
          ? Double.parseDouble(t.substring(0, t.length() - 1).strip()) / 100
          : Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new FusilladeException(
          option + ": \"" + text + "\" is not a share (examples: 20%, 0.2)");
    }
  }

  private static Duration duration(String option, String text, Duration otherwise) {
    if (text == null) {
      return otherwise;
    }
    try {
      return SettingValues.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          option + ": \"" + text + "\" is not a duration (examples: 30s, 2m)");
    }
  }
}
