package io.fusillade.scenarios;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.ClockOffset;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSettings;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import io.fusillade.workload.CastReview;
import io.fusillade.workload.CheckText;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.Problem;
import io.fusillade.workload.QuerySelection;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The workload file and seed of a workload-driven simulation ({@code fusillade run}), from its
 * {@link RunSettings}. Shared by the workload runners.
 */
public final class WorkloadProperties {
  private WorkloadProperties() {}

  /**
   * The settings' workload ({@code -Dfusillade.workload=FILE}), validated: every problem in one
   * message.
   */
  public static Workload workload(RunSettings settings) {
    if (settings.workload() == null) {
      throw new FusilladeException(
          "no workload: give -D" + RunSettings.WORKLOAD + "=path/to/workload.yml");
    }
    LoadResult result =
        WorkloadLoader.load(settings.workload(), System::getenv, RunPlan.current().scale());
    if (!result.isValid()) {
      throw new FusilladeException(
          result.problems().stream().map(Problem::toString).collect(Collectors.joining("\n")));
    }
    // --queries: the run's set of the file's queries (every one without it)
    Workload selected =
        new QuerySelection(RunPlan.current().sql().queries()).apply(result.orThrow());
    Workload workload = casts(selected, settings);
    scheduleFaults(workload);
    return workload;
  }

  /**
   * Whether this run searches the limit instead of running its load ({@code fusillade limit}): its
   * plan has the search's settings.
   */
  public static boolean searching() {
    return RunPlan.current().limit() != null;
  }

  /**
   * The limit search's settings: the plan's, which the command line resolved over the workload's
   * {@code limit:} section; under {@code mvn gatling:test}, the {@code fusillade.limit.*}
   * properties over that section.
   */
  public static LimitSettings limit(Workload workload) {
    LimitSettings base = workload.limit().orElse(LimitSettings.DEFAULTS);
    if (RunPlan.installed()) {
      return RunPlan.current().limit() != null ? RunPlan.current().limit() : base;
    }
    return LimitSettings.fromProperties(SettingValues.systemProperties(), base);
  }

  /**
   * The adaptive run's settings: the plan's, which the command line resolved over the workload's
   * {@code adaptive:} section; without a plan (a simulation run by {@code mvn gatling:test}), the
   * section's, else the defaults.
   */
  public static AdaptiveSettings adaptive(Workload workload) {
    AdaptiveSettings planned = RunPlan.current().adaptive();
    return planned != null ? planned : workload.adaptive().orElse(AdaptiveSettings.DEFAULTS);
  }

  /**
   * The workload's queries as their server must be sent them ({@link CastReview}): a cast
   * PostgreSQL spells otherwise sent so, said once ({@code $2::string} as {@code $2::text}), and a
   * cast the server is known to lack refused before the load, at its line and column.
   */
  static Workload casts(Workload workload, RunSettings settings) {
    List<String> urls =
        !settings.urls().isEmpty()
            ? settings.urls()
            : workload.connection().map(c -> c.urls()).orElse(List.of());
    CastReview.Target target = CastReview.Target.of(urls);
    String text;
    try {
      text = java.nio.file.Files.readString(java.nio.file.Path.of(workload.file()));
    } catch (java.io.IOException | RuntimeException e) {
      text = null; // the queries' own lines then
    }
    List<CastReview.Finding> findings = CastReview.of(workload, target, text);
    List<String> problems =
        findings.stream().filter(CastReview.Finding::problem).map(Object::toString).toList();
    if (!problems.isEmpty()) {
      throw new FusilladeException(String.join("\n", problems));
    }
    findings.forEach(f -> System.out.println("Fusillade: " + f));
    return CastReview.adapt(workload, target);
  }

  /**
   * Records the injector's share of a test run by several ({@code injectors}, {@code
   * injectorIndex}, {@code startAt}) and waits for the common start, with how early it was ready
   * ({@code startMarginMs}) and how late it began ({@code startLatenessMs}): the last thing a
   * simulation's constructor does, so that the load begins at once after it.
   */
  public static void awaitCommonStart(InjectorShare share) {
    awaitCommonStart(share, null);
  }

  /**
   * As {@link #awaitCommonStart(InjectorShare)}, on the clock the injectors share: this injector's
   * offset to it is recorded ({@link ClockOffset#parameters()}) and {@code --start-at} is read on
   * it.
   *
   * @param share this injector's share of the test
   * @param clock its offset to the shared clock, or null to use its own
   */
  public static void awaitCommonStart(InjectorShare share, ClockOffset clock) {
    Map<String, Object> parameters = new java.util.LinkedHashMap<>(share.parameters());
    if (clock != null) {
      parameters.putAll(clock.parameters());
      FusilladeRun.referenceClock(clock);
    }
    if (share.startAt() != null) {
      System.out.println(
          "Fusillade: injector "
              + share.index()
              + " of "
              + share.count()
              + " starts at "
              + share.startAt()
              + (clock == null
                  ? ""
                  : " on the clock of "
                      + clock.reference()
                      + " (this one's offset to it: "
                      + clock.offsetMicros() / 1000.0
                      + " ms ± "
                      + clock.uncertaintyMicros() / 1000.0
                      + ")"));
      parameters.put("startMarginMs", share.untilStart(clock).toMillis());
      parameters.put("startLatenessMs", share.awaitStart(clock).toMillis());
    }
    FusilladeRun.parameters(parameters);
  }

  /**
   * Schedules the workload's {@code faults} for the run ({@link FusilladeRun#faults}): under {@code
   * mvn gatling:test} as under {@code fusillade run}, which passes them on as well (each is done
   * once).
   */
  public static void scheduleFaults(Workload workload) {
    FusilladeRun.faults(workload.faults().stream().map(f -> f.text()).toArray(String[]::new));
  }

  /**
   * Declares the run's checks in {@code run.json} ({@link FusilladeRun#checks}): under the command
   * line, its plan's, which it resolved (the workload's and {@code --check}, or the defaults, none
   * that cannot apply); under {@code mvn gatling:test}, the workload's {@code checks} and the
   * settings', each once, in that order.
   */
  public static void declareChecks(RunSettings settings, Workload workload) {
    if (RunPlan.installed()) {
      FusilladeRun.checks(settings.checks().toArray(String[]::new));
      return;
    }
    Set<String> checks = new LinkedHashSet<>();
    workload.checks().stream().map(CheckText::text).forEach(checks::add);
    checks.addAll(settings.checks());
    FusilladeRun.checks(checks.toArray(String[]::new));
  }

  /** The settings' seed ({@code -Dfusillade.seed}), else the workload's, else the default. */
  public static long seed(RunSettings settings, Workload workload) {
    return settings.seed() != null
        ? settings.seed()
        : workload.seed().orElse(Workload.DEFAULT_SEED);
  }
}
