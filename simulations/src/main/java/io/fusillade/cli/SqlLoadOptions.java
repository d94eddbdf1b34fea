package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import picocli.CommandLine.Option;

/**
 * The shape of an SQL workload's load in {@code fusillade run}, over its {@code load:} section: the
 * mode, a spike after the constant rate, the users of queue mode. The rate and the duration are
 * {@link RateOptions}.
 */
final class SqlLoadOptions extends OptionGroup {
  @Option(
      names = "--mode",
      description =
          "queue or rate (default: the workload's load.mode; queue for config_name QUEUE; else"
              + " rate).")
  String mode;

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
    String[] names = {"--users", "--peak"};
    Integer[] values = {users, peak};
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

  /** {@code --mode}, or null when not given. */
  Mode mode() {
    return switch (mode == null ? "" : mode) {
      case "" -> null;
      case "queue" -> Mode.QUEUE;
      case "rate" -> Mode.RATE;
      default -> throw new FusilladeException("--mode must be queue or rate, not \"" + mode + "\"");
    };
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
