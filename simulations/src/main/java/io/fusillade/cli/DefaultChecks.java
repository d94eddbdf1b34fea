package io.fusillade.cli;

import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.scenarios.logs.LogsRun;
import io.fusillade.scenarios.sql.SqlRateRun;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.TopicWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks {@code fusillade run} gives a workload that declares none (no {@code checks:} key and
 * no {@code --check}), so that a YAML run has a verdict without code. Each default is added only
 * where it can be judged on that kind of run: a check that cannot be judged would fail a healthy
 * run.
 *
 * <ul>
 *   <li>{@value #ERRORS} and {@value #INJECTOR}: every run;
 *   <li>{@value #RATE}: SQL rate mode and a logs section with {@code rate:} (its bulks), when the
 *       run has one target rate (not stages or steps) held long enough for its rate to be judged
 *       within 1%: at least {@link #MIN_RATE_SECONDS} seconds and {@link #MIN_STEADY_REQUESTS}
 *       requests after its first and last second. The rate check measures completions per second
 *       over the steady state; in a shorter run the requests cut at its two ends, or a latency
 *       hiccup at its end (100 ms at 100/s is 10 requests), move that rate by more than 1%;
 *   <li>{@value #DELIVERY}: topics read by consumers (for each such topic when some have none);
 *   <li>{@value #LAG}: topics when every topic read by consumers writes at one constant rate for at
 *       least {@link #MIN_LAG_SECONDS} seconds (the trend test needs 10 samples after its warm-up;
 *       a ramp or rising steps make the lag grow with the rate, which is no sign of slow readers).
 * </ul>
 *
 * @param checks the default checks, in the order they are recorded
 * @param notes why a default was left out, one sentence each (may be empty)
 */
record DefaultChecks(List<String> checks, List<String> notes) {
  static final String ERRORS = "errors < 1%";
  static final String INJECTOR = "injector not saturated";
  static final String RATE = "rate >= 99% of target";
  static final String LAG = "lag not growing";
  static final String DELIVERY = "delivery exact";

  /** The shortest constant rate whose rate is judged by default, in seconds. */
  static final long MIN_RATE_SECONDS = 30;

  /** The fewest requests expected in the steady state for the rate to be judged by default. */
  static final long MIN_STEADY_REQUESTS = 500;

  /** The shortest constant topic rate whose lag trend is judged by default, in seconds. */
  static final long MIN_LAG_SECONDS = 15;

  DefaultChecks {
    checks = List.copyOf(checks);
    notes = List.copyOf(notes);
  }

  /**
   * The defaults of a SQL run.
   *
   * @param settings the run's settings: the options over the file's load section, mode resolved
   */
  static DefaultChecks sql(RunSettings settings) {
    List<String> checks = new ArrayList<>(List.of(ERRORS, INJECTOR));
    List<String> notes = new ArrayList<>();
    if (settings.mode() == Mode.RATE) {
      if (!settings.stages().isEmpty()) {
        notes.add(RATE + " is not a default with stages (no one target rate)");
      } else {
        double rate = settings.rate() != null ? settings.rate() : SqlRateRun.DEFAULT_RATE;
        Duration duration =
            settings.duration() != null ? settings.duration() : SqlRateRun.DEFAULT_DURATION;
        rate(rate, duration, RATE, notes).ifPresent(checks::add);
      }
    }
    return new DefaultChecks(checks, notes);
  }

  /**
   * The defaults of a logs run.
   *
   * @param ingest what its section ingests, with the options applied
   */
  static DefaultChecks logs(LogIngest ingest) {
    List<String> checks = new ArrayList<>(List.of(ERRORS, INJECTOR));
    List<String> notes = new ArrayList<>();
    if (ingest.mode() == LogIngest.Mode.RATE) {
      String check = RATE + " for \"" + LogsRun.BULK + "\"";
      rate(ingest.rate(), ingest.duration(), check, notes).ifPresent(checks::add);
    }
    return new DefaultChecks(checks, notes);
  }

  /**
   * The defaults of a topics run.
   *
   * @param topics the workload's topics
   */
  static DefaultChecks topics(List<TopicWorkload> topics) {
    List<String> checks = new ArrayList<>(List.of(ERRORS, INJECTOR));
    List<String> notes = new ArrayList<>();
    List<TopicWorkload> read = topics.stream().filter(t -> t.consumers() > 0).toList();
    if (read.isEmpty()) {
      notes.add(DELIVERY + " and " + LAG + " need consumers: no topic has any");
      return new DefaultChecks(checks, notes);
    }
    if (read.size() == topics.size()) {
      checks.add(DELIVERY);
    } else {
      read.forEach(t -> checks.add(DELIVERY + " for \"" + t.name() + "\""));
    }
    boolean judged =
        read.stream()
            .allMatch(
                t ->
                    t.rate() != null
                        && t.steps() == null
                        && t.stages().isEmpty()
                        && t.duration() != null
                        && t.duration().toSeconds() >= MIN_LAG_SECONDS);
    if (judged) {
      checks.add(LAG);
    } else {
      notes.add(
          LAG
              + " is a default only when every topic read writes at one rate for at least "
              + MIN_LAG_SECONDS
              + " s");
    }
    return new DefaultChecks(checks, notes);
  }

  /** The rate check when a constant {@code rate} held for {@code duration} can be judged. */
  private static java.util.Optional<String> rate(
      double rate, Duration duration, String check, List<String> notes) {
    double steadySeconds = duration.toMillis() / 1000.0 - 2;
    if (duration.toSeconds() < MIN_RATE_SECONDS || rate * steadySeconds < MIN_STEADY_REQUESTS) {
      notes.add(
          RATE
              + " is a default only for a rate held "
              + MIN_RATE_SECONDS
              + " s or more with "
              + MIN_STEADY_REQUESTS
              + " requests or more: a shorter run's rate cannot be judged within 1%");
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(check);
  }

  /**
   * What the console says before the run: the defaults, how to change them, and what was left out.
   *
   * @return one or two lines
   */
  String describe() {
    StringBuilder text =
        new StringBuilder("fusillade: the workload declares no checks; default checks: ")
            .append(String.join(", ", checks))
            .append(" (a failed one exits 3). Declare checks: in the workload or give --check to")
            .append(" choose others; checks: [] for none.");
    if (!notes.isEmpty()) {
      text.append(System.lineSeparator())
          .append("fusillade: ")
          .append(String.join("; ", notes))
          .append('.');
    }
    return text.toString();
  }
}
