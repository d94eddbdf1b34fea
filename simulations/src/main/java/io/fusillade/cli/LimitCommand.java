package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.limit.LimitChain;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.LimitSettings;
import io.fusillade.limit.LimitSlo;
import io.fusillade.limit.StepResult;
import io.fusillade.plan.ExitCode;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.SettingValues;
import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade limit WORKLOAD}: the maximum sustainable rate of a workload, searched in one run
 * (the workload's runner, its plan carrying the search's settings). It composes the option groups
 * of {@code fusillade run} that say where and how to connect, not those that set the load (the
 * search sets it) nor the checks (the search judges each step).
 */
@Command(
    name = "limit",
    mixinStandardHelpOptions = true,
    description = {
      "Finds the maximum sustainable rate of a workload.",
      "Its queries, its one topic's writes, or its log bulks: the rate doubles from --from until",
      "a step fails its objectives (--slo; default: errors < 1%%, rate >= 95%% of target,",
      "latency not growing, latency < 10x baseline: the knee, where requests queue), is",
      "bisected down to --resolution,",
      "and the rate found is confirmed by one more step. Each step is judged as it ends, its",
      "first --warm-up share left out; a step the injector cannot vouch for (its own lag, its",
      "own failures) is tried once more, then ends the search: the injector is then the",
      "limit, never the system.",
      "With a topic's readers, 'lag not growing' joins the defaults. The workload's limit:",
      "section gives what the options do not (one topic per file). One run record holds",
      "every step (fusillade summary, report, trend). Exit code 0 when a limit was found (or",
      "the system sustained --max), 3 when it is below --expect-at-least or the lowest rate",
      "failed, 5 when the injector was the limit, 6 when no rate held on confirmation; the",
      "connection options of fusillade run apply (--url, --user, --pool, --engine, --seed...).",
      "--then-latency-at SHARE (a topic with readers): seed 000's chain in the same run and",
      "record: an idle step at a trickle first (--idle-rate, default 100 Kbit/s of messages,",
      "for --idle), then the search, then a step at SHARE of the rate found (--latency-step",
      "long); prints the maximum MB/s, the idle p50 end-to-end and the p50 end-to-end at",
      "SHARE of the maximum. Exit code 3 when the read lag grew in either step."
    })
final class LimitCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

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
      names = "--max-steps",
      paramLabel = "N",
      description =
          "The most steps the search takes, the confirmation included (default 40): a search"
              + " that needs more ends out-of-steps, exit code 6.")
  Integer maxSteps;

  @Option(
      names = "--expect-at-least",
      paramLabel = "RATE",
      description = "Exit 3 when the limit found is below this rate: 5000/s, 5000.")
  String expectAtLeast;

  @Option(
      names = "--then-latency-at",
      paramLabel = "SHARE",
      description =
          "After the search, a step at this share of the rate found, measuring the end-to-end"
              + " p50 (0.33 or 33%%: seed 000's 1/3 of the maximum), after an idle step first."
              + " A topic with readers only.")
  String thenLatencyAt;

  @Option(
      names = "--idle-rate",
      paramLabel = "RATE",
      description =
          "--then-latency-at: the idle step's rate (default 100 Kbit/s of the topic's messages,"
              + " at least 1/s).")
  String idleRate;

  @Option(
      names = "--idle",
      paramLabel = "DURATION",
      description = "--then-latency-at: how long the idle step lasts (default 10s).")
  String idle;

  @Option(
      names = "--latency-step",
      paramLabel = "DURATION",
      description =
          "--then-latency-at: how long the step at a share of the maximum lasts (default: as the"
              + " confirmation).")
  String latencyStep;

  @Mixin TargetOptions target = new TargetOptions();
  @Mixin SqlOptions sql = new SqlOptions();
  @Mixin SqlRequestOptions requests = new SqlRequestOptions();
  @Mixin QueriesOption querySet = new QueriesOption();
  @Mixin LogsOptions logs = new LogsOptions();
  @Mixin RunControlOptions control = new RunControlOptions();
  @Mixin OutputOptions outputs = new OutputOptions();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RunInputs in =
        new RunInputs(
            "limit", file, null, target, sql, requests, querySet, logs, null, null, null, control,
            null, outputs);
    RunPlanner.validateGroups(in);
    outputs.refuseBucket("limit");
    Workload workload = querySet.select(WorkloadFiles.load(file));
    in = in.withWorkload(workload);
    if (workload.topics().size() > 1) {
      throw new FusilladeException(
          file
              + ": fusillade limit searches one topic's writes; this workload has "
              + workload.topics().size()
              + " topics (put the one to search in a file of its own)");
    }
    LimitSettings search = resolve(workload, out);
    search = chained(workload, search, out);
    Double expected = expectAtLeast == null ? null : rate("--expect-at-least", expectAtLeast);
    RunPlanner.Planned planned = RunPlanner.plan(in, search, null, out);
    planned.kind().checkReachable(in, planned.settings());
    ForkedRun.Outcome outcome = ForkedRun.run(planned.runner(), planned.plan(), outputs, out, err);
    if (outcome.code() != ExitCode.OK || outcome.record().isEmpty()) {
      return ExitLine.print(outcome, out, err);
    }
    Object recorded =
        RunRecordReader.read(outcome.record().get()).manifest().parameters().get("limit");
    if (!(recorded instanceof Map<?, ?> map) || map.get("verdict") == null) {
      return ExitLine.print(
          ExitCode.FAILED, "the search left no verdict in its record", outcome.record(), out, err);
    }
    LimitResult result = LimitResult.fromMap(map);
    ExitCode code = code(result, expected);
    String what = result.describe();
    if (search.chain() != null) {
      Object chain =
          RunRecordReader.read(outcome.record().get()).manifest().parameters().get("chain");
      StreamingFigures figures =
          StreamingFigures.of(
              workload.topics().get(0), map, chain instanceof Map<?, ?> c ? c : Map.of());
      figures.lines().forEach(out::println);
      out.flush();
      if (code == ExitCode.OK && !figures.passed()) {
        code = ExitCode.CHECK_FAILED;
        what += "; " + String.join("; ", figures.failures());
      }
    }
    if (expected != null && code == ExitCode.CHECK_FAILED && reached(result) < expected) {
      what += String.format(Locale.ROOT, "; below the expected %s/s", StepResult.rate(expected));
    }
    return ExitLine.print(code, what, outcome.record(), out, err);
  }

  /**
   * The exit code of a search's verdict: 0 found (or the system sustained the highest rate
   * allowed), 3 below {@code --expect-at-least} or even the lowest rate failed, 5 the injector was
   * the limit, 6 no rate held on confirmation (unstable) or the steps ran out first.
   */
  static ExitCode code(LimitResult result, Double expected) {
    if (expected != null && result.verdict() != LimitResult.Verdict.STOPPED) {
      if (reached(result) >= expected) {
        return ExitCode.OK;
      }
      if (result.verdict() != LimitResult.Verdict.INJECTOR_LIMIT) {
        return ExitCode.CHECK_FAILED;
      }
    }
    return switch (result.verdict()) {
      case FOUND, ABOVE_MAX, DISK_FULL -> ExitCode.OK;
      case BELOW_MIN -> ExitCode.CHECK_FAILED;
      case INJECTOR_LIMIT -> ExitCode.INJECTOR_LIMIT;
      case UNSTABLE, OUT_OF_STEPS -> ExitCode.UNSTABLE;
      case STOPPED -> ExitCode.FAILED;
    };
  }

  private static double reached(LimitResult result) {
    return result.limit() != null ? result.limit() : result.sustained();
  }

  /**
   * The search's settings: the options over the workload's {@code limit:} section, with what the
   * objectives need: the readers' lag for a topic with readers, the latency knee when no objective
   * bounds the latency, and steps long enough to judge a latency trend (lengthened when the trend
   * is a default, refused when the user asked for it).
   */
  LimitSettings resolve(Workload workload, PrintWriter out) {
    LimitSettings base = workload.limit().orElse(LimitSettings.DEFAULTS);
    boolean defaultObjectives = slo.isEmpty() && base.slo().equals(LimitSettings.DEFAULT_SLO);
    boolean readers = workload.topics().stream().anyMatch(t -> t.consumers() > 0);
    if (readers && defaultObjectives) {
      // A topic with readers is sustainable only while they keep up.
      List<String> objectives = new ArrayList<>(LimitSettings.DEFAULT_SLO);
      objectives.add("lag not growing");
      base = base.withSlo(objectives);
    }
    LimitSettings settings = settings(base);
    if (!settings.objectives().boundsLatency()) {
      List<String> objectives = new ArrayList<>(settings.slo());
      objectives.add(LimitSlo.DEFAULT_KNEE);
      settings = settings.withSlo(objectives);
      out.println(
          "fusillade: no objective bounds the latency: the search adds '"
              + LimitSlo.DEFAULT_KNEE
              + "' (a step fails when its p50 or p99 is more than 10 times the lowest passing"
              + " step's: requests queue).");
    }
    if (settings.objectives().judgesLatencyTrend()
        && Math.min(settings.stepSeconds(), settings.confirmSeconds())
            < settings.shortestStepForTrend()) {
      int shortest = settings.shortestStepForTrend();
      int seconds = Math.min(settings.stepSeconds(), settings.confirmSeconds());
      String judged =
          "steps of "
              + seconds
              + " s judge "
              + settings.judgedSeconds(seconds)
              + " s after their warm-up, too few for 'latency not growing' (steps of "
              + shortest
              + " s at least)";
      if (!defaultObjectives) {
        throw new FusilladeException(
            "--step: "
                + judged
                + ": give --step "
                + shortest
                + "s or longer, or drop the objective");
      }
      if (settings.stepSeconds() < shortest) {
        settings = settings.withStep(Duration.ofSeconds(shortest));
      }
      if (settings.confirmSeconds() < shortest) {
        settings = settings.withConfirm(Duration.ofSeconds(shortest));
      }
      out.println("fusillade: " + judged + ": the search's steps last " + shortest + " s.");
    }
    out.println("fusillade: objectives of every step: " + String.join(", ", settings.slo()) + ".");
    out.flush();
    return settings;
  }

  /**
   * The search chained with seed 000's steps when {@code --then-latency-at} says so: refused before
   * the run for what it cannot apply to (no topic, a topic without readers: no end-to-end latency),
   * and its own options refused without it.
   */
  private LimitSettings chained(Workload workload, LimitSettings search, PrintWriter out) {
    if (thenLatencyAt == null) {
      for (String[] given :
          new String[][] {
            {"--idle-rate", idleRate}, {"--idle", idle}, {"--latency-step", latencyStep}
          }) {
        if (given[1] != null) {
          throw new FusilladeException(given[0] + " applies only with --then-latency-at");
        }
      }
      return search;
    }
    if (workload.topics().isEmpty()) {
      throw new FusilladeException(
          "--then-latency-at: "
              + file
              + " has no topic; the chained steps measure a topic's end-to-end latency");
    }
    TopicWorkload topic = workload.topics().get(0);
    if (topic.consumers() < 1) {
      throw new FusilladeException(
          "--then-latency-at: "
              + file
              + ": topic "
              + topic.name()
              + " has no consumers, so no end-to-end latency and no read lag: give it"
              + " consumers: 1 or more");
    }
    double share = share("--then-latency-at", thenLatencyAt);
    long[] range = topic.messageSize().integralRange();
    double bytes = Math.max(1, (range[0] + range[1]) / 2.0);
    double trickle =
        idleRate != null
            ? rate("--idle-rate", idleRate)
            : Math.max(1, Math.round(IDLE_BITS_PER_SECOND / 8 / bytes * 10) / 10.0);
    try {
      LimitChain chain =
          new LimitChain(
              trickle,
              duration("--idle", idle, Duration.ofSeconds(10)),
              share,
              duration("--latency-step", latencyStep, search.confirm()));
      out.println(
          "fusillade: chained: an idle step at "
              + StepResult.number(trickle)
              + " msgs/s for "
              + chain.idleSeconds()
              + " s, the search, then "
              + chain.latencySeconds()
              + " s at "
              + share
              + " x the rate found; each judged on the read lag.");
      out.flush();
      return search.withChain(chain);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
  }

  /** Seed 000's "without load": 100 Kbit/s. */
  static final double IDLE_BITS_PER_SECOND = 100_000;

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
          maxSteps != null ? maxSteps : base.maxSteps());
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
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
