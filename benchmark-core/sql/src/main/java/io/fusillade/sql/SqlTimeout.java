package io.fusillade.sql;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a request may run before the client gives up on it, and what its KO then says. A request
 * past its timeout is cancelled on the server (PostgreSQL's cancel request with the native engine,
 * {@link java.sql.Statement#cancel()} with JDBC), never left running there.
 *
 * <pre>{@code
 * SqlTimeout.of(Duration.ofMinutes(30))   // KO "timed out after 1800 s"
 * }</pre>
 *
 * @param duration how long the request may run, from when it is sent to its node
 * @param reason the KO's reason when it does not end in time
 */
public record SqlTimeout(Duration duration, String reason) {

  /** Checks the duration: positive. */
  public SqlTimeout {
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(reason, "reason");
    if (duration.isZero() || duration.isNegative()) {
      throw new IllegalArgumentException("a timeout must be > 0: " + duration);
    }
  }

  /** A timeout whose KO reads "timed out after 60 s" (or "after 250 ms"). */
  public static SqlTimeout of(Duration duration) {
    return new SqlTimeout(duration, "timed out after " + text(duration));
  }

  /** The duration as reasons write it: whole seconds as "60 s", else milliseconds "250 ms". */
  static String text(Duration duration) {
    long millis = duration.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  /** The duration in nanoseconds, saturated. */
  public long nanos() {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }
}
