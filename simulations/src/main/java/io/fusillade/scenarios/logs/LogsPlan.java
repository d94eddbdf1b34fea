package io.fusillade.scenarios.logs;

import io.fusillade.FusilladeException;
import io.fusillade.workload.LogIngest;
import io.fusillade.workload.LogsSection;
import java.time.Duration;
import java.util.Locale;

/**
 * The ingest a {@code logs} section asks for, with the command line's {@code --rate} and {@code
 * --duration} applied. They only change a section that ingests at a {@code rate}: on {@code docs},
 * {@code steps} or {@code stages} they are a user error rather than silently ignored.
 */
public final class LogsPlan {
  private LogsPlan() {}

  /**
   * @param logs the section
   * @param rate bulks per second replacing the section's, or null
   * @param duration how long, replacing the section's, or null
   * @return the ingest to run
   * @throws FusilladeException when an override does not apply to the section
   */
  public static LogIngest ingest(LogsSection logs, Double rate, Duration duration) {
    LogIngest ingest = logs.ingest();
    if (rate == null && duration == null) {
      return ingest;
    }
    if (ingest.mode() != LogIngest.Mode.RATE) {
      String given = rate != null ? "--rate" : "--duration";
      String mode = ingest.mode().name().toLowerCase(Locale.ROOT);
      throw new FusilladeException(
          given
              + " applies to a logs section with rate:, and this one ingests "
              + mode
              + ": edit the file instead");
    }
    if (rate != null && !(rate > 0)) {
      throw new FusilladeException("--rate must be > 0, got " + rate);
    }
    if (duration != null && (duration.isZero() || duration.isNegative())) {
      throw new FusilladeException("--duration must be > 0, got " + duration);
    }
    return LogIngest.rate(
        rate != null ? rate : ingest.rate(), duration != null ? duration : ingest.duration());
  }
}
