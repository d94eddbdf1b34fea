package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The shape of an SQL workload's load in {@code fusillade run}, over its {@code load:} section: the
 * mode, a spike after the constant rate, the users of queue mode, and what steers the rate of
 * adaptive mode (its objectives, its bounds, its lanes). The rate and the duration are {@link
 * RateOptions}: adaptive mode starts at the rate and lasts the duration.
 */
final class SqlLoadOptions extends OptionGroup {
  @Option(
      names = "--mode",
      description =
          "queue, rate or adaptive (default: the workload's load.mode; queue for config_name"
              + " QUEUE; else rate). Adaptive: the rate is set every second to hold the"
              + " objectives (--slo), starting at --rate, for --duration; the workload's"
              + " adaptive: section gives what the options do not.")
  String mode;

  @Option(
      names = "--slo",
      paramLabel = "OBJECTIVE",
      description =
          "Adaptive mode: an objective held every second: 'p99 < 20ms', 'errors < 1%%', 'lag not"
              + " growing' (repeatable; default: those of fusillade limit).")
  List<String> slo = new ArrayList<>();

  @Option(
      names = "--min-rate",
      paramLabel = "RATE",
      description = "Adaptive mode: the lowest rate (default 1/s).")
  String minRate;

  @Option(
      names = "--max-rate",
      paramLabel = "RATE",
      description = "Adaptive mode: the highest rate (default 1,000,000/s).")
  String maxRate;

  @Option(
      names = "--lanes",
      description =
          "Adaptive mode: requests in flight at most (default 1000, and what the pool holds).")
  Integer lanes;

  @Option(
      names = "--peak",
      description = "Rate mode: a spike's peak rate after the constant phase.")
  Integer peak;

  @Option(names = "--rise", description = "Spike: time to rise to the peak (default 10s).")
  String rise;

  @Option(names = "--hold", description = "Spike: time at the peak (default 30s).")
  String hold;

  @Option(names = "--fall", description = "Spike: time to fall back (default 10s).")
  String fall;

  @Option(
      names = "--users",
      description = "Queue mode: virtual users (default: load.users, else 10).")
  Integer users;

  /** Checks each value, naming the option: before anything starts. */
  void validate() {
    mode();
    if (!adaptive() && (!slo.isEmpty() || minRate != null || maxRate != null || lanes != null)) {
      throw new FusilladeException(
          "--slo, --min-rate, --max-rate and --lanes steer the rate of --mode adaptive; give"
              + " --mode adaptive, or leave them out");
    }
    if (adaptive() && peak != null) {
      throw new FusilladeException(
          "--peak shapes a fixed spike; --mode adaptive sets the rate itself every second");
    }
    if (minRate != null) {
      LimitCommand.rate("--min-rate", minRate);
    }
    if (maxRate != null) {
      LimitCommand.rate("--max-rate", maxRate);
    }
    String[] names = {"--users", "--peak", "--lanes"};
    Integer[] values = {users, peak, lanes};
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null && values[i] <= 0) {
        throw new FusilladeException(names[i] + " must be > 0, got " + values[i]);
      }
    }
    RateOptions.duration("--rise", rise, false);
    RateOptions.duration("--hold", hold, false);
    RateOptions.duration("--fall", fall, false);
    if (peak == null && (rise != null || hold != null || fall != null)) {
      throw new FusilladeException("--rise, --hold and --fall shape a spike: give its --peak");
    }
  }

  /** {@code --mode}, or null when not given; adaptive mode is a rate mode ({@link #adaptive}). */
  Mode mode() {
    return switch (mode == null ? "" : mode) {
      case "" -> null;
      case "queue" -> Mode.QUEUE;
      case "rate", "adaptive" -> Mode.RATE;
      default ->
          throw new FusilladeException(
              "--mode must be queue, rate or adaptive, not \"" + mode + "\"");
    };
  }

  /**
   * Refuses {@code --mode adaptive} for a workload of another kind, before the run: a topic's
   * writes and a log store's bulks are not sent by the lanes a controller can steer.
   */
  static void refuseAdaptive(RunInputs in, String kind) {
    if (in.sqlLoad() != null && in.sqlLoad().adaptive()) {
      throw new FusilladeException(
          "--mode adaptive steers the arrival rate of an SQL workload's queries; "
              + in.file()
              + " is a "
              + kind
              + " workload, whose load cannot be steered while it runs (fusillade limit"
              + " searches its sustainable rate)");
    }
  }

  /** Whether {@code --mode adaptive} was given. */
  boolean adaptive() {
    return "adaptive".equals(mode);
  }

  /**
   * The adaptive run's settings: these options over the workload's {@code adaptive:} section
   * ({@code base}), the run's rate and duration ({@code settings}: the options over its {@code
   * load:} section) as the start and the length unless the section gives them and the options do
   * not.
   *
   * @param rateGiven whether {@code --rate} was given
   * @param durationGiven whether {@code --duration} was given
   * @param sectionGiven whether the workload has an {@code adaptive:} section
   */
  AdaptiveSettings adaptiveSettings(
      AdaptiveSettings base,
      boolean sectionGiven,
      RunSettings settings,
      boolean rateGiven,
      boolean durationGiven) {
    double low = minRate != null ? LimitCommand.rate("--min-rate", minRate) : base.min();
    double high = maxRate != null ? LimitCommand.rate("--max-rate", maxRate) : base.max();
    double start = base.start();
    if (settings.rate() != null && (rateGiven || !sectionGiven)) {
      start = settings.rate();
    }
    Duration length = base.duration();
    if (settings.duration() != null && (durationGiven || !sectionGiven)) {
      length = settings.duration();
    }
    if (start < low || start > high) {
      throw new FusilladeException(
          String.format(
              java.util.Locale.ROOT,
              "--mode adaptive: the first rate %s/s is not between --min-rate %s/s and"
                  + " --max-rate %s/s",
              io.fusillade.limit.StepResult.rate(start),
              io.fusillade.limit.StepResult.rate(low),
              io.fusillade.limit.StepResult.rate(high)));
    }
    try {
      return new AdaptiveSettings(
          start,
          low,
          high,
          base.increase(),
          base.decrease(),
          base.window(),
          length,
          slo.isEmpty() ? base.slo() : slo,
          lanes != null ? lanes : base.lanes());
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("--mode adaptive: " + e.getMessage());
    }
  }

  /** The options over {@code settings}, unset ones left as they are. */
  RunSettings over(RunSettings settings) {
    RunSettings.Spike spike =
        peak == null
            ? settings.spike()
            : new RunSettings.Spike(
                peak,
                RateOptions.duration("--rise", rise, false),
                RateOptions.duration("--hold", hold, false),
                RateOptions.duration("--fall", fall, false));
    return settings
        .withMode(mode() != null ? mode() : settings.mode())
        .withSpike(spike)
        .withUsers(users != null ? users : settings.users());
  }
}
