package io.fusillade.scenarios.sql;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.plan.RunPlan;
import io.fusillade.sql.SqlTimeout;
import io.gatling.javaapi.core.Session;
import java.time.Duration;

/**
 * The time bounds of a ladder's queries ({@link SqlLadderRun}): each query's timeout, which is
 * {@value #DEFAULT_MINUTES} minutes unless {@code --request-timeout} ({@link
 * RunPlan.Requests#timeout}) or the query's {@code timeout:} says, and the optional timeout of a
 * session's whole query set ({@code --set-timeout}, {@link RunPlan.Ladder#timeout}).
 *
 * <p>Why {@value #DEFAULT_MINUTES} minutes and not {@code fusillade run}'s 60 s: an analytical
 * query (TPC-H- or TPC-DS-shaped: joins of the fact tables, rollups, window functions) takes
 * minutes on a loaded cluster, and the ladder's highest levels exist to load it; 60 s would end
 * those queries as failures at exactly the levels the study is about. Half an hour is well above
 * any query of the shipped sets at the scales Fusillade loads, and still ends a runaway one (a bad
 * plan, a lock never released) within the ladder's time. A timed-out query is cancelled on the
 * server.
 *
 * <p>With a set timeout, the query running when a session's set has lasted that long is cancelled
 * on the server (KO "timed out: the query set's ... ran out"), the session's remaining queries are
 * not sent, and its {@code query set} is KO.
 */
final class LadderTimeouts {
  /** A ladder query's timeout, in minutes, unless told. */
  static final long DEFAULT_MINUTES = 30;

  /** A ladder query's timeout unless told. */
  static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(DEFAULT_MINUTES);

  private static final String DEADLINE = "fusillade.ladder.setDeadline";

  private final Duration requestTimeout;
  private final Duration setTimeout; // null: none

  private LadderTimeouts(Duration requestTimeout, Duration setTimeout) {
    this.requestTimeout = requestTimeout;
    this.setTimeout = setTimeout;
  }

  /** From the run plan: its request timeout, and its ladder's set timeout. */
  static LadderTimeouts of(RunPlan plan) {
    Duration request = plan.sql().requests().timeout();
    return new LadderTimeouts(
        request != null ? request : DEFAULT_REQUEST_TIMEOUT,
        plan.ladder() != null ? plan.ladder().timeout() : null);
  }

  /** The queries' timeout unless a query says. */
  Duration requestTimeout() {
    return requestTimeout;
  }

  /** The session as its query set starts: with the set's deadline. */
  Session start(Session session) {
    return setTimeout == null ? session : session.set(DEADLINE, System.nanoTime() + nanos());
  }

  /** Whether the session's set still has time for its next query. */
  boolean hasTime(Session session) {
    return setTimeout == null || System.nanoTime() - session.getLong(DEADLINE) < 0;
  }

  /**
   * {@code call} bounded by what is left of the session's set: when that is shorter than the call's
   * own timeout (or the queries'), the call's timeout is what is left.
   */
  SqlCall bound(Session session, SqlCall call) {
    if (setTimeout == null) {
      return call;
    }
    long left = session.getLong(DEADLINE) - System.nanoTime();
    Duration own = call.timeout() != null ? call.timeout().duration() : requestTimeout;
    if (left >= own.toNanos()) {
      return call;
    }
    return call.withTimeout(
        new SqlTimeout(
            Duration.ofNanos(Math.max(1_000_000, left)),
            "timed out: the query set's " + text(setTimeout) + " ran out"));
  }

  private long nanos() {
    try {
      return setTimeout.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE / 4;
    }
  }

  /** A duration as the reason writes it: "3 h", "30 min", "90 s", "500 ms". */
  static String text(Duration d) {
    long millis = d.toMillis();
    if (millis % 3_600_000 == 0) {
      return millis / 3_600_000 + " h";
    }
    if (millis % 60_000 == 0) {
      return millis / 60_000 + " min";
    }
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }
}
