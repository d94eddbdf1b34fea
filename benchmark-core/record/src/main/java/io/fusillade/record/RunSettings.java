package io.fusillade.record;

import io.fusillade.FusilladeException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a run was asked to do: the settings {@code fusillade run} gives a workload runner, and what
 * {@code run.json} says about them afterwards. This class and {@link RunParameters} are the one
 * place that names them: {@link #toSystemProperties()} and {@link #fromSystemProperties()} are the
 * {@code -D} side (the command line writes them, the forked runner reads them), {@link
 * RunParameters} the {@code run.json} side (the runner writes them, the reports read them).
 *
 * <p>Every component may be unset (null, an empty list, false): the runner then applies its own
 * default (100 arrivals per second, 60 s, 10 users, the workload's seed...), and records what it
 * used.
 *
 * <table>
 *   <caption>Names</caption>
 *   <tr><th>setting</th><th>system property</th><th>run.json parameter</th></tr>
 *   <tr><td>mode</td><td>fusillade.mode</td><td>mode</td></tr>
 *   <tr><td>rate</td><td>fusillade.rate</td><td>rate (read also: targetRate)</td></tr>
 *   <tr><td>duration</td><td>fusillade.duration</td>
 *       <td>durationSeconds (read also: duration)</td></tr>
 *   <tr><td>spike</td><td>fusillade.peak, .rise, .hold, .fall</td>
 *       <td>peak, riseSeconds, holdSeconds, fallSeconds</td></tr>
 *   <tr><td>steps</td><td>(from the workload file)</td><td>rates, stepSeconds (read also:
 *       stepDuration)</td></tr>
 *   <tr><td>users</td><td>fusillade.users</td><td>users</td></tr>
 *   <tr><td>seed</td><td>fusillade.seed</td><td>seed</td></tr>
 *   <tr><td>workload</td><td>fusillade.workload</td><td>workload</td></tr>
 *   <tr><td>urls</td><td>fusillade.urls</td>
 *       <td>(the runner records the masked {@code target})</td></tr>
 *   <tr><td>user, engine, pool, balance, setup, teardown</td>
 *       <td>fusillade.user, .engine, .pool, .balance, .setup, .teardown</td>
 *       <td>(the SQL protocol records sql.engine, sql.balance...)</td></tr>
 *   <tr><td>stages</td><td>fusillade.stages ({@code 0..200/10s,200..200/60s})</td>
 *       <td>stages ({@code [{"from":0,"to":200,"seconds":10}, ...]})</td></tr>
 *   <tr><td>checks</td><td>fusillade.checks (one a line)</td>
 *       <td>(the run records its declared {@code checks})</td></tr>
 * </table>
 *
 * @param mode what kind of run; null when not said
 * @param rate the target arrival rate, per second (open model)
 * @param duration how long the arrival rate holds
 * @param spike a spike after the constant phase, or null
 * @param steps a stepped rate profile (from a workload file), or null
 * @param users virtual users (queue mode)
 * @param seed the seed of the generated data and of the query order
 * @param workload the workload file
 * @param urls where the load goes: JDBC URLs, Kafka bootstrap servers or log stores' base URLs;
 *     empty for the workload's own, else an embedded server. May hold passwords: never recorded
 * @param user the database user
 * @param engine the SQL engine ({@code jdbc} or {@code native})
 * @param pool connections per node
 * @param balance how requests are spread over nodes ({@code round-robin}, {@code random}, {@code
 *     weighted:2,1,1})
 * @param setup create and fill the tables first: {@code auto}, {@code true} or {@code false}
 * @param teardown drop the tables at the end
 * @param stages a rate profile of ramps and holds, in order (from a workload's {@code load.stages},
 *     or the {@code stages} of its topics or of its logs ingest); empty for none. Instead of rate,
 *     duration and spike
 * @param checks checks to declare in {@code run.json} ({@code p99 < 50ms}...): a workload's {@code
 *     checks} and {@code fusillade run --check}; {@code fusillade run} evaluates them after the run
 */
public record RunSettings(
    Mode mode,
    Double rate,
    Duration duration,
    Spike spike,
    Steps steps,
    Integer users,
    Long seed,
    Path workload,
    List<String> urls,
    String user,
    String engine,
    Integer pool,
    String balance,
    String setup,
    boolean teardown,
    List<Stage> stages,
    List<String> checks) {

  /** The settings' system properties: {@code fusillade.} and the setting's name. */
  public static final String MODE = "fusillade.mode";

  public static final String RATE = "fusillade.rate";
  public static final String DURATION = "fusillade.duration";
  public static final String PEAK = "fusillade.peak";
  public static final String RISE = "fusillade.rise";
  public static final String HOLD = "fusillade.hold";
  public static final String FALL = "fusillade.fall";
  public static final String USERS = "fusillade.users";
  public static final String SEED = "fusillade.seed";
  public static final String WORKLOAD = "fusillade.workload";
  public static final String URLS = "fusillade.urls";
  public static final String USER = "fusillade.user";
  public static final String ENGINE = "fusillade.engine";
  public static final String POOL = "fusillade.pool";
  public static final String BALANCE = "fusillade.balance";
  public static final String SETUP = "fusillade.setup";
  public static final String TEARDOWN = "fusillade.teardown";
  public static final String STAGES = "fusillade.stages";
  public static final String CHECKS = "fusillade.checks";

  /** A spike's defaults: 10 s up, 30 s at the peak, 10 s down. */
  public static final Duration DEFAULT_RISE = Duration.ofSeconds(10);

  public static final Duration DEFAULT_HOLD = Duration.ofSeconds(30);
  public static final Duration DEFAULT_FALL = Duration.ofSeconds(10);

  /** No setting given: every runner's default. */
  public static final RunSettings NONE =
      new RunSettings(
          null, null, null, null, null, null, null, null, List.of(), null, null, null, null, null,
          false, List.of(), List.of());

  /** Copies the lists. */
  public RunSettings {
    urls = urls == null ? List.of() : List.copyOf(urls);
    stages = stages == null ? List.of() : List.copyOf(stages);
    checks = checks == null ? List.of() : List.copyOf(checks);
  }

  /** What kind of run. */
  public enum Mode {
    /** Each of N users runs its share of a seeded query queue once. */
    QUEUE,
    /** A constant arrival rate, with an optional spike. */
    RATE,
    /** A workload's logs section: ingest, then searches. */
    LOGS,
    /** A workload's topics section. */
    TOPICS;

    /** The name in properties and {@code run.json}: lower case. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The mode of a label, or null for an unknown one. */
    static Mode of(String label) {
      for (Mode m : values()) {
        if (m.label().equals(label)) {
          return m;
        }
      }
      return null;
    }
  }

  /**
   * After the constant phase, the rate rises to the peak, holds, and falls back.
   *
   * @param peak the peak rate, per second, above zero
   */
  public record Spike(double peak, Duration rise, Duration hold, Duration fall) {
    /** Checks the values; null durations take the defaults. */
    public Spike {
      if (!(peak > 0)) {
        throw new IllegalArgumentException("a spike's peak must be > 0: " + peak);
      }
      rise = rise == null ? DEFAULT_RISE : rise;
      hold = hold == null ? DEFAULT_HOLD : hold;
      fall = fall == null ? DEFAULT_FALL : fall;
    }
  }

  /**
   * A stepped rate profile: each rate in turn, each for the same time.
   *
   * @param rates the rates per second, in order
   * @param each how long each rate lasts
   */
  public record Steps(List<Double> rates, Duration each) {
    /** Copies the list. */
    public Steps {
      rates = List.copyOf(rates);
      Objects.requireNonNull(each, "each");
    }
  }

  /**
   * One stage of a rate profile: the arrival rate goes from {@code from} to {@code to} per second,
   * linearly, over {@code duration}; a hold has {@code from == to}.
   *
   * @param from the rate at the start, per second, at least 0
   * @param to the rate at the end, per second, at least 0
   * @param duration how long, above zero
   */
  public record Stage(double from, double to, Duration duration) {
    /** Checks the values. */
    public Stage {
      if (!(from >= 0) || !(to >= 0) || Double.isInfinite(from) || Double.isInfinite(to)) {
        throw new IllegalArgumentException("a stage's rates must be >= 0: " + from + ", " + to);
      }
      if (duration == null || duration.isNegative() || duration.isZero()) {
        throw new IllegalArgumentException("a stage's duration must be > 0: " + duration);
      }
    }

    /** Whether the rate is constant. */
    public boolean isHold() {
      return from == to;
    }

    /** {@code from..to/duration}, as in {@value RunSettings#STAGES}. */
    @Override
    public String toString() {
      return text(from) + ".." + text(to) + "/" + SettingValues.formatDuration(duration);
    }
  }

  // ---- withers: one per setting ----

  public RunSettings withMode(Mode value) {
    return new RunSettings(
        value, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withRate(Number value) {
    Double r = value == null ? null : value.doubleValue();
    return new RunSettings(
        mode, r, duration, spike, steps, users, seed, workload, urls, user, engine, pool, balance,
        setup, teardown, stages, checks);
  }

  public RunSettings withDuration(Duration value) {
    return new RunSettings(
        mode, rate, value, spike, steps, users, seed, workload, urls, user, engine, pool, balance,
        setup, teardown, stages, checks);
  }

  public RunSettings withSpike(Spike value) {
    return new RunSettings(
        mode, rate, duration, value, steps, users, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withSteps(Steps value) {
    return new RunSettings(
        mode, rate, duration, spike, value, users, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withUsers(Integer value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, value, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withSeed(Long value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, value, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withWorkload(Path value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, value, urls, user, engine, pool, balance,
        setup, teardown, stages, checks);
  }

  public RunSettings withUrls(List<String> value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, value, user, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withUser(String value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, value, engine, pool,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withEngine(String value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, value, pool, balance,
        setup, teardown, stages, checks);
  }

  public RunSettings withPool(Integer value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, value,
        balance, setup, teardown, stages, checks);
  }

  public RunSettings withBalance(String value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool, value,
        setup, teardown, stages, checks);
  }

  public RunSettings withSetup(String value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool,
        balance, value, teardown, stages, checks);
  }

  public RunSettings withTeardown(boolean value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool,
        balance, setup, value, stages, checks);
  }

  public RunSettings withStages(List<Stage> value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, value, checks);
  }

  public RunSettings withChecks(List<String> value) {
    return new RunSettings(
        mode, rate, duration, spike, steps, users, seed, workload, urls, user, engine, pool,
        balance, setup, teardown, stages, value);
  }

  // ---- the -D side ----

  /** The settings of this JVM's system properties. */
  public static RunSettings fromSystemProperties() {
    return from(SettingValues.systemProperties());
  }

  /**
   * The settings of named text values, as {@link #toSystemProperties()} writes them.
   *
   * @throws FusilladeException naming the property, for a value of the wrong kind
   */
  public static RunSettings from(SettingValues values) {
    String modeLabel = values.string(MODE, null);
    Mode mode = null;
    if (modeLabel != null) {
      mode = Mode.of(modeLabel.toLowerCase(Locale.ROOT));
      if (mode == null) {
        throw new FusilladeException(
            "system property "
                + MODE
                + "="
                + modeLabel
                + " is not one of queue, rate, logs, topics");
      }
    }
    Double peak = values.number(PEAK, null);
    Duration rise = values.duration(RISE, null);
    Duration hold = values.duration(HOLD, null);
    Duration fall = values.duration(FALL, null);
    String workload = values.string(WORKLOAD, null);
    String urls = values.string(URLS, "");
    return new RunSettings(
        mode,
        values.number(RATE, null),
        values.duration(DURATION, null),
        peak != null && peak > 0 ? new Spike(peak, rise, hold, fall) : null,
        null,
        values.integer(USERS, null),
        values.longValue(SEED, null),
        workload == null ? null : Path.of(workload),
        Arrays.stream(urls.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList(),
        values.string(USER, null),
        values.string(ENGINE, null),
        values.integer(POOL, null),
        values.string(BALANCE, null),
        values.string(SETUP, null),
        Boolean.parseBoolean(values.string(TEARDOWN, "false")),
        stages(values.string(STAGES, null)),
        checks(values.string(CHECKS, null)));
  }

  /**
   * The settings as system properties for a forked runner (set ones only); {@link
   * #fromSystemProperties()} reads them back. The steps are not among them: they come from the
   * workload file.
   */
  public Map<String, String> toSystemProperties() {
    Map<String, String> p = new LinkedHashMap<>();
    putText(p, MODE, mode == null ? null : mode.label());
    putText(p, WORKLOAD, workload == null ? null : workload.toAbsolutePath().toString());
    putText(p, RATE, rate == null ? null : text(rate));
    putText(p, DURATION, duration == null ? null : SettingValues.formatDuration(duration));
    if (spike != null) {
      p.put(PEAK, text(spike.peak()));
      p.put(RISE, SettingValues.formatDuration(spike.rise()));
      p.put(HOLD, SettingValues.formatDuration(spike.hold()));
      p.put(FALL, SettingValues.formatDuration(spike.fall()));
    }
    putText(p, USERS, users);
    putText(p, SEED, seed);
    putText(p, POOL, pool);
    putText(p, ENGINE, engine);
    putText(p, BALANCE, balance);
    putText(p, SETUP, setup);
    if (teardown) {
      p.put(TEARDOWN, "true");
    }
    if (!urls.isEmpty()) {
      p.put(URLS, String.join(",", urls));
    }
    putText(p, USER, user);
    if (!stages.isEmpty()) {
      p.put(STAGES, String.join(",", stages.stream().map(Stage::toString).toList()));
    }
    if (!checks.isEmpty()) {
      // One check a line: a check may hold commas and spaces ('p99 < 50ms for "a, b"'), never a
      // line break.
      p.put(CHECKS, String.join("\n", checks));
    }
    return p;
  }

  // ---- the run.json side: RunParameters ----

  /** The {@code run.json} parameters of the settings that are set: see {@link RunParameters#of}. */
  public Map<String, Object> toParameters() {
    return RunParameters.of(this);
  }

  /** The settings a {@code run.json} records: see {@link RunParameters#settings}. */
  public static RunSettings fromParameters(Map<String, ?> parameters) {
    return RunParameters.settings(parameters);
  }

  /** The stages of {@value #STAGES}: {@code from..to/duration}, separated by commas. */
  private static List<Stage> stages(String text) {
    if (text == null || text.isBlank()) {
      return List.of();
    }
    List<Stage> stages = new ArrayList<>();
    for (String one : text.split(",")) {
      try {
        int range = one.indexOf("..");
        int slash = one.indexOf('/');
        stages.add(
            new Stage(
                Double.parseDouble(one.substring(0, range).strip()),
                Double.parseDouble(one.substring(range + 2, slash).strip()),
                SettingValues.parseDuration(one.substring(slash + 1).strip())));
      } catch (RuntimeException e) {
        throw new FusilladeException(
            "system property "
                + STAGES
                + ": \""
                + one.strip()
                + "\" is not a stage such as 0..200/10s (from..to/duration)");
      }
    }
    return stages;
  }

  /** The checks of {@value #CHECKS}: one a line. */
  private static List<String> checks(String text) {
    if (text == null) {
      return List.of();
    }
    return Arrays.stream(text.split("\n")).map(String::strip).filter(c -> !c.isEmpty()).toList();
  }

  private static String text(double value) {
    return RunParameters.number(value).toString();
  }

  private static void putText(Map<String, String> map, String name, Object value) {
    if (value != null) {
      map.put(name, value.toString());
    }
  }
}
