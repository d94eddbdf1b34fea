package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.fault.Fault;
import io.fusillade.fault.FaultSchedule;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSettings;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import io.fusillade.reports.checks.Check;
import io.fusillade.reports.checks.CheckParser;
import io.fusillade.reports.checks.RunShape;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.sql.SqlAdaptiveRun;
import io.fusillade.system.ServerTarget;
import io.fusillade.workload.CheckText;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Resolves a command's inputs into the {@link RunPlan} of one run, once, before anything starts:
 * the kind of workload and its settings, the checks (declared, or the defaults said on the
 * console), the abort rules, the faults and the servers they act on, the monitors, the deadline,
 * the outputs. Every mistake is a user error naming the option or the workload's line; the forked
 * JVM decides nothing of it again.
 */
final class RunPlanner {
  /**
   * The most arrivals per second one injector is asked to send, documented in {@code
   * command-line.md}: about ten times what one injector sends on two cores (20,000/s of SQL point
   * selects). A higher rate is a typo or needs {@code --injectors}.
   */
  static final double INJECTOR_CEILING = 200_000;

  /**
   * What a run's deadline gives beyond its load and its drain: the servers' start (three brokers,
   * three OpenSearch nodes), the record's close and both reports.
   */
  static final Duration DEADLINE_MARGIN = Duration.ofSeconds(120);

  /** How often a run of the command line prints its progress (Fusillade's, not Gatling's). */
  static final int PROGRESS_SECONDS = 5;

  private RunPlanner() {}

  /**
   * The resolved run.
   *
   * @param kind the workload's kind
   * @param settings the settings, checks included
   * @param plan the plan, every part filled in but the result file
   * @param runner the simulation that runs it
   */
  record Planned(WorkloadKind kind, RunSettings settings, RunPlan plan, Class<?> runner) {}

  /**
   * Plans a run of {@code in}'s workload.
   *
   * @param limit the limit search's settings, or null for a run of the workload's load
   * @param ladder the ladder run's settings, or null
   * @param out where the defaults and what is left out are said
   */
  static Planned plan(RunInputs in, LimitSettings limit, RunPlan.Ladder ladder, PrintWriter out) {
    validateGroups(in);
    WorkloadKind kind = WorkloadKind.of(in);
    if (in.requests() != null) {
      SqlOptions sql = in.sql();
      in.requests()
          .check(
              in.workload(),
              in.target().urls,
              sql != null ? sql.replicaUrls : List.of(),
              sql != null ? sql.replicas : null,
              sql != null ? sql.balance : null);
    }
    if (in.injectorShare().count() > 1 && !kind.faultNodes(in).isEmpty()) {
      throw new FusilladeException(
          "--injectors "
              + in.injectorShare().count()
              + ": the injectors share one system under test: give its --url (or the workload's"
              + " connection), not an embedded server each");
    }
    RunSettings settings = kind.settings(in);
    AdaptiveSettings adaptive = adaptive(in, kind, settings, out);
    double peak = kind.peakRate(settings, in);
    if (limit == null && adaptive == null && peak > INJECTOR_CEILING) {
      throw new FusilladeException(
          String.format(
              java.util.Locale.ROOT,
              "a rate of %,.0f arrivals/s per injector is beyond one injector's ceiling of %,.0f/s:"
                  + " split the load with --injectors N (N >= %d), each injector on a machine of"
                  + " its own",
              peak,
              INJECTOR_CEILING,
              (long) Math.ceil(peak * in.injectorShare().count() / INJECTOR_CEILING)));
    }
    RunShape shape = kind.shape(in, settings);
    List<Fault> faults = in.control().faults(in.workload());
    shape =
        new RunShape(
            shape.targetRate(), shape.topicReaders(), faults.stream().map(Fault::text).toList());
    checkFaults(in, kind, settings, faults);
    List<String> checks =
        limit != null || adaptive != null ? List.of() : checks(in, kind, settings, shape, out);
    List<ServerTarget> monitored = in.control().monitored(in.workload());
    Duration load =
        limit != null
            ? limitLength(limit)
            : adaptive != null ? adaptive.duration() : kind.loadLength(settings, in);
    Duration deadline = load == null ? null : load.plus(kind.drain(in)).plus(DEADLINE_MARGIN);

    RunPlan base = PlanProperties.read(System.getProperties());
    OutputOptions outputs = in.outputs();
    RunPlan.Live live = outputs.live();
    RunPlan plan =
        base.withSettings(settings.withChecks(checks))
            .withShare(in.share() != null ? in.share().plan() : base.share())
            .withControl(
                new RunPlan.Control(
                    in.control().abortRules(in.workload()),
                    faults.stream().map(Fault::text).toList(),
                    deadline))
            .withTelemetry(
                base.telemetry()
                    .withMonitors(concat(base.telemetry().monitors(), lines(monitored)))
                    .withProcesses(
                        concat(base.telemetry().processes(), in.control().watchProcesses))
                    .withJfr(base.telemetry().jfr() || outputs.jfr)
                    .withLogs(logSources(in.workload())))
            .withLive(
                new RunPlan.Live(
                    live.metricsPort() != null ? live.metricsPort() : base.live().metricsPort(),
                    base.live().metricsHost(),
                    live.metricsHold() != null ? live.metricsHold() : base.live().metricsHold(),
                    live.influxUrl() != null ? live.influxUrl() : base.live().influxUrl()))
            .withLimit(limit)
            .withAdaptive(adaptive)
            .withLadder(ladder)
            .withOutputs(
                new RunPlan.Outputs(
                    outputs.output.toAbsolutePath(),
                    null,
                    outputs.gatlingReport ? null : PROGRESS_SECONDS,
                    null,
                    true));
    plan = kind.plan(plan, in);
    Class<?> runner =
        adaptive != null ? SqlAdaptiveRun.class : kind.runner(settings, limit != null);
    return new Planned(kind, settings, plan, runner);
  }

  /**
   * The adaptive run's settings ({@code --mode adaptive}), or null for another run: the options
   * over the workload's {@code adaptive:} section, said on the console with the objectives. Only an
   * SQL workload's queries can be steered (their arrivals are the lanes a limit search drives); the
   * checks after the run, a spike and stages do not apply to a rate the controller sets, and are
   * refused when given as options, left out (and said) when the file has them.
   */
  private static AdaptiveSettings adaptive(
      RunInputs in, WorkloadKind kind, RunSettings settings, PrintWriter out) {
    SqlLoadOptions load = in.sqlLoad();
    boolean section = in.workload().adaptive().isPresent();
    // A file's adaptive: section asks for adaptive mode itself, as load.mode asks for its mode:
    // for fusillade run when --mode does not say otherwise; never ignored without a word.
    boolean fromFile = section && load != null && load.mode == null && "run".equals(in.command());
    if (load == null || !(load.adaptive() || fromFile)) {
      if (section) {
        out.println(
            "fusillade: the workload's adaptive: section is left out: "
                + (load != null && load.mode != null
                    ? "--mode " + load.mode + " runs the load it states"
                    : "fusillade " + in.command() + " sets the rates itself")
                + " (fusillade run without --mode runs it adaptively).");
      }
      return null;
    }
    if (!(kind instanceof SqlKind)) {
      SqlLoadOptions.refuseAdaptive(in, kind.label()); // the kinds' own refusal, said again
      throw new FusilladeException(
          "adaptive: steers the arrival rate of an SQL workload's queries; "
              + in.file()
              + " is a "
              + kind.label()
              + " workload, whose load cannot be steered while it runs (fusillade limit"
              + " searches its sustainable rate)");
    }
    if (in.checks() != null && !in.checks().checks.isEmpty()) {
      throw new FusilladeException(
          "--check judges a run after it ends; --mode adaptive holds its objectives every"
              + " second instead: give them with --slo");
    }
    Workload workload = in.workload();
    AdaptiveSettings adaptive =
        load.adaptiveSettings(
            workload.adaptive().orElse(AdaptiveSettings.DEFAULTS),
            section,
            settings,
            in.rate() != null && in.rate().rate != null,
            in.rate() != null && in.rate().duration != null);
    List<String> leftOut = new ArrayList<>();
    if (workload.checksDeclared() && !workload.checks().isEmpty()) {
      leftOut.add("its checks");
    }
    if (settings.spike() != null) {
      leftOut.add("load.spike");
    }
    if (!settings.stages().isEmpty()) {
      leftOut.add("load.stages");
    }
    if (!leftOut.isEmpty()) {
      out.println(
          "fusillade: adaptive mode sets the rate itself and holds its objectives every second:"
              + " the workload's "
              + String.join(", ", leftOut)
              + " do not apply and are left out.");
    }
    out.println(
        String.format(
            java.util.Locale.ROOT,
            "fusillade: adaptive mode: from %s/s, between %s/s and %s/s, for %s; objectives held"
                + " every second: %s.",
            io.fusillade.limit.StepResult.rate(adaptive.start()),
            io.fusillade.limit.StepResult.rate(adaptive.min()),
            io.fusillade.limit.StepResult.rate(adaptive.max()),
            SettingValues.formatDuration(adaptive.duration()),
            String.join(", ", adaptive.slo())));
    out.flush();
    return adaptive;
  }

  /**
   * The workload's {@code logs:} monitor sources for the plan; {@code embedded} stays as written:
   * the run that starts the server knows its log (a ladder puts its own server's in).
   */
  static List<RunPlan.LogSource> logSources(io.fusillade.workload.Workload workload) {
    List<RunPlan.LogSource> sources = new java.util.ArrayList<>();
    if (workload == null) {
      return sources;
    }
    for (io.fusillade.workload.LogMonitor l : workload.monitorLogs()) {
      sources.add(new RunPlan.LogSource(l.name(), java.nio.file.Path.of(l.file()), l.patterns()));
    }
    return sources;
  }

  /** Checks every option's value, naming it: before the workload is even read. */
  static void validateGroups(RunInputs in) {
    if (in.sql() != null) {
      in.sql().validate();
    }
    if (in.logs() != null) {
      in.logs().validate();
    }
    if (in.rate() != null) {
      in.rate().validate();
    }
    if (in.sqlLoad() != null) {
      in.sqlLoad().validate();
    }
    if (in.share() != null) {
      in.share().share();
    }
    in.outputs().validate();
  }

  /**
   * The run's checks: the workload's and {@code --check}'s when it declares any, else the defaults
   * of its kind (said on the console). Each is parsed, and one that cannot be judged on this run
   * ({@link Check#inapplicable}) is refused, naming it; a ladder leaves out the workload's that
   * cannot apply to its levels (a shared workload file's rate check), and says so.
   */
  private static List<String> checks(
      RunInputs in, WorkloadKind kind, RunSettings settings, RunShape shape, PrintWriter out) {
    Workload workload = in.workload();
    List<String> given = in.checks() == null ? List.of() : in.checks().checks;
    if (given.isEmpty() && !workload.checksDeclared() && in.command().equals("ladder")) {
      // A ladder level is a measurement, not a test: a run whose requests failed is marked x in
      // its table by their KO (Ladder.erroredRuns), and no default check judges it again.
      return List.of();
    }
    if (given.isEmpty() && !workload.checksDeclared()) {
      DefaultChecks defaults = kind.defaults(in, settings);
      out.println(defaults.describe());
      out.flush();
      return defaults.checks();
    }
    Set<String> checks = new LinkedHashSet<>();
    List<String> leftOut = new ArrayList<>();
    for (CheckText check : workload.checks()) {
      Optional<String> why;
      try {
        why = CheckParser.parse(check.text()).inapplicable(shape);
      } catch (FusilladeException e) {
        throw new FusilladeException(check.problem(e.getMessage()).toString());
      }
      if (why.isEmpty()) {
        checks.add(check.text());
      } else if (in.command().equals("ladder")) {
        leftOut.add(check.text());
      } else {
        throw new FusilladeException(
            check
                .problem("\"" + check.text() + "\" cannot be judged on this run: " + why.get())
                .toString());
      }
    }
    for (String check : given) {
      Optional<String> why;
      try {
        why = CheckParser.parse(check).inapplicable(shape);
      } catch (FusilladeException e) {
        throw new FusilladeException("--check: " + e.getMessage());
      }
      if (why.isPresent()) {
        throw new FusilladeException(
            "--check \"" + check + "\" cannot be judged on this run: " + why.get());
      }
      checks.add(check);
    }
    if (!leftOut.isEmpty()) {
      out.println(
          "fusillade: a ladder level is a measurement at a number of sessions, with no target"
              + " rate: the workload's "
              + String.join(", ", leftOut.stream().map(c -> "\"" + c + "\"").toList())
              + " left out of its runs.");
      out.flush();
    }
    return List.copyOf(checks);
  }

  /**
   * Fails before anything starts when a fault names a local server this run will not start, acts
   * where it cannot (a delay of the topic's consumers), or is due after the run's end.
   */
  private static void checkFaults(
      RunInputs in, WorkloadKind kind, RunSettings settings, List<Fault> faults) {
    Map<String, Integer> nodes = kind.faultNodes(in);
    try {
      FaultSchedule.validateNodes(faults, nodes);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
    Duration load = kind.loadLength(settings, in);
    for (Fault fault : faults) {
      if (fault.action() == Fault.Action.STARVE) {
        if (!fault.target().equals(LocalFaults.POSTGRES)) {
          throw new FusilladeException(
              "fault \""
                  + fault.text()
                  + "\": the embedded PostgreSQL can be starved of CPU, not "
                  + fault.target());
        }
        starveMechanism("fault \"" + fault.text() + "\"", fault.starve());
      }
      if (fault.action() == Fault.Action.DELAY && fault.target().equals(LocalFaults.CONSUMER)) {
        throw new FusilladeException(
            "fault \""
                + fault.text()
                + "\": the answers of the embedded servers (postgres, broker, opensearch) can be"
                + " delayed, not the topic's consumers");
      }
      if (load != null && fault.at().compareTo(load) >= 0) {
        throw new FusilladeException(
            "fault \""
                + fault.text()
                + "\" is due at "
                + SettingValues.formatDuration(fault.at())
                + ", after the load's end at "
                + SettingValues.formatDuration(load)
                + ": it would never happen");
      }
    }
  }

  /**
   * The mechanism that will starve a server of CPU on this machine, said on the console; refuses
   * the run, before anything starts, when the machine allows none (a CI runner without cgroups or
   * taskset): a starvation silently not done would make a baseline of the starved run.
   */
  static io.fusillade.starve.CpuStarvation.Mechanism starveMechanism(
      String what, io.fusillade.starve.CpuStarve starve) {
    try {
      return io.fusillade.starve.CpuStarvation.detect(starve.mechanism());
    } catch (IllegalStateException | IllegalArgumentException e) {
      throw new FusilladeException(what + ": " + e.getMessage());
    }
  }

  /**
   * The longest a limit search's load can last: every step and the confirmation, and the steps it
   * is chained with.
   */
  private static Duration limitLength(LimitSettings limit) {
    Duration search = limit.step().multipliedBy(limit.maxSteps()).plus(limit.confirm());
    return limit.chain() == null
        ? search
        : search.plus(limit.chain().idle()).plus(limit.chain().latencyStep());
  }

  private static List<String> lines(List<ServerTarget> targets) {
    return targets.stream().map(ServerTarget::toLine).toList();
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
