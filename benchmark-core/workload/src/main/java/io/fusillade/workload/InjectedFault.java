package io.fusillade.workload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Requests mixed into a workload to fail on purpose (fault injection), so that a run shows how the
 * system and its good requests fare beside them. Each is sent as request {@code injected <kind>}
 * ({@link io.fusillade.record.Injected}), left out of the error and latency checks unless a check
 * names it.
 *
 * <p>A kind may be sent only for a while ({@code from: 20s, for: 10s}), so that the report can put
 * the good requests before, during and after it side by side.
 *
 * @param kind what fails: one of {@link #SQL_KINDS} (the statements are {@code
 *     io.fusillade.gatling.sql.SqlFaults}'), {@link #LOGS_KINDS} ({@code
 *     io.fusillade.gatling.logs.LogsFaults}) or {@link #TOPIC_KINDS} ({@code
 *     io.fusillade.gatling.kafka.TopicFaults})
 * @param share the share of the arrivals sent as this kind instead of a workload request, 0 to 0.5;
 *     0 when it has a rate
 * @param rate the requests per second of this kind, sent beside the workload's requests; 0 when it
 *     has a share
 * @param from when the kind starts to be sent: from the load's first arrival for a share, from the
 *     start of the injection for a rate
 * @param length how long it is sent; null for until the end of the load
 */
public record InjectedFault(
    String kind, double share, double rate, Duration from, Duration length) {
  /** A statement PostgreSQL cannot parse (SQLState 42601). */
  public static final String SYNTAX_ERROR = "syntax error";

  /** An insert of a key that exists (SQLState 23505), into a table Fusillade creates. */
  public static final String CONSTRAINT_VIOLATION = "constraint violation";

  /** A statement that runs past its timeout (SQLState 57014), in a transaction of its own. */
  public static final String STATEMENT_TIMEOUT = "statement timeout";

  /**
   * Two transactions that update two rows in opposite orders, in turn: PostgreSQL aborts one
   * (SQLState 40P01).
   */
  public static final String DEADLOCK = "deadlock";

  /** A document whose typed field holds a value of another type: the item fails, HTTP 200. */
  public static final String MAPPING_VIOLATION = "mapping violation";

  /** A {@code _bulk} body whose action line is not JSON: the whole request fails, HTTP 400. */
  public static final String MALFORMED_BULK = "malformed bulk";

  /** A message above the brokers' size limit, from a producer that allows it. */
  public static final String OVERSIZED_MESSAGE = "oversized message";

  /** A message to a topic that does not exist. */
  public static final String MISSING_TOPIC = "missing topic";

  /** A message from a producer whose {@code max.request.size} is below it. */
  public static final String WRONG_SETTING = "wrong setting";

  /** The kinds of an SQL workload. */
  public static final List<String> SQL_KINDS =
      List.of(SYNTAX_ERROR, CONSTRAINT_VIOLATION, STATEMENT_TIMEOUT, DEADLOCK);

  /** The kinds of a logs workload. */
  public static final List<String> LOGS_KINDS = List.of(MAPPING_VIOLATION, MALFORMED_BULK);

  /** The kinds of a topics workload. */
  public static final List<String> TOPIC_KINDS =
      List.of(OVERSIZED_MESSAGE, MISSING_TOPIC, WRONG_SETTING);

  /** Checks the share or the rate, and the window. */
  public InjectedFault {
    if (rate != 0) {
      if (!(rate > 0) || Double.isInfinite(rate) || share != 0) {
        throw new IllegalArgumentException(
            "give an injected kind a share or a rate above 0 per second, got share "
                + share
                + " and rate "
                + rate);
      }
    } else if (!(share > 0) || share > 0.5) {
      throw new IllegalArgumentException(
          "the share of injected requests is above 0% and at most 50%, got " + share * 100 + "%");
    }
    from = from == null ? Duration.ZERO : from;
    if (from.isNegative()) {
      throw new IllegalArgumentException("from must be 0 or later, got " + from);
    }
    if (length != null && (length.isZero() || length.isNegative())) {
      throw new IllegalArgumentException("for must be longer than 0, got " + length);
    }
  }

  /** A kind with its share of the arrivals, for the whole load. */
  public InjectedFault(String kind, double share) {
    this(kind, share, 0, Duration.ZERO, null);
  }

  /** A kind with its share of the arrivals, from {@code from} for {@code length} (null: on). */
  public InjectedFault(String kind, double share, Duration from, Duration length) {
    this(kind, share, 0, from, length);
  }

  /** A kind sent at {@code rate} per second, from {@code from} for {@code length} (null: on). */
  public static InjectedFault atRate(String kind, double rate, Duration from, Duration length) {
    return new InjectedFault(kind, 0, rate, from, length);
  }

  /** Whether this kind is sent at its own rate rather than in a share of the arrivals. */
  public boolean hasRate() {
    return rate > 0;
  }

  /**
   * Whether this kind is sent at a moment of the load.
   *
   * @param nanosFromStart nanoseconds from the load's first arrival
   * @return true within {@code [from, from + length)}
   */
  public boolean activeAt(long nanosFromStart) {
    long start = from.toNanos();
    return nanosFromStart >= start && (length == null || nanosFromStart - start < length.toNanos());
  }

  /** Whether this kind is sent for the whole load. */
  public boolean always() {
    return from.isZero() && length == null;
  }

  /**
   * The kinds a workload may inject, from the sections it has.
   *
   * @param sql whether it has {@code queries}
   * @param logs whether it has {@code logs}
   * @param topics whether it has {@code topics}
   * @return the kinds, in order
   */
  public static List<String> kindsFor(boolean sql, boolean logs, boolean topics) {
    List<String> kinds = new ArrayList<>();
    if (sql) {
      kinds.addAll(SQL_KINDS);
    }
    if (logs) {
      kinds.addAll(LOGS_KINDS);
    }
    if (topics) {
      kinds.addAll(TOPIC_KINDS);
    }
    return List.copyOf(kinds);
  }
}
