package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.record.SettingValues;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The arrival rate of {@code fusillade run} and how long it holds, over the workload's: SQL rate
 * mode, and a logs section that ingests at a {@code rate:}. Commands that set the load themselves
 * ({@code limit}'s search, {@code ladder}'s levels) do not compose it.
 */
final class RateOptions extends OptionGroup {
  @Option(
      names = "--rate",
      description =
          "Arrivals per second: SQL rate mode (default: load.rate, else 100), or the bulks of a"
              + " logs section with rate:.")
  Double rate;

  @Option(
      names = "--duration",
      description = "How long the rate holds: 60s, 5m... (default: the workload's, else 60s).")
  String duration;

  /** Checks each value, naming the option: before anything starts. */
  void validate() {
    if (rate != null && !(rate > 0 && Double.isFinite(rate))) {
      throw new FusilladeException("--rate must be > 0, got " + rate);
    }
    duration();
  }

  /** {@code --duration}, or null. */
  Duration duration() {
    return duration("--duration", duration, true);
  }

  /** A duration option, checked: null when not given. */
  static Duration duration(String option, String text, boolean positive) {
    if (text == null) {
      return null;
    }
    Duration parsed;
    try {
      parsed = SettingValues.parseDuration(text);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          option + ": \"" + text + "\" is not a duration (examples: 30s, 500ms, 2m)");
    }
    // A spike may hold or fall in no time; the run itself must last.
    if (parsed.isNegative() || (positive && parsed.isZero())) {
      throw new FusilladeException(
          option + " must be " + (positive ? "> 0" : ">= 0") + ", got " + text);
    }
    return parsed;
  }
}
