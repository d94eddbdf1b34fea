package io.fusillade.record;

import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Who a failed request (a KO) blames: the system under test ({@link #SERVER}), the network between
 * the injector and it ({@link #NETWORK}), or the injector itself ({@link #INJECTOR}).
 *
 * <p>Only the reason text is recorded (per request name, in {@code counters.jsonl} and {@code
 * run.json}), so the class is derived from it by {@link #of(String)}. That keeps every record ever
 * written readable and classifiable, and keeps the clients free to phrase their reasons. The rule,
 * first match wins (case-insensitive):
 *
 * <ol>
 *   <li>an explicit prefix: {@code "injector"} (e.g. "injector queue full", "injector shut down"),
 *       {@code "network:"}, {@code "server:"};
 *   <li>a server's own answer: {@code "SQLState 08…"} (SQL class 08, connection exceptions) is
 *       network; any other {@code "SQLState …"}, {@code "HTTP …"} (an Elasticsearch/OpenSearch
 *       status) and {@code "bulk item"} are server;
 *   <li>the injector's phrases ({@link #INJECTOR_PHRASES}): the request was never sent or never
 *       built, a connection pool or a producer buffer ran out;
 *   <li>the network's phrases ({@link #NETWORK_PHRASES}): refused, reset or closed connections, any
 *       timeout (connect, request, delivery: the answer did not come back), unknown hosts;
 *   <li>anything else is the server's (a Kafka broker error, a failed check, an unknown reason),
 *       which is what an old record's reasons were taken to mean before the classes existed.
 * </ol>
 */
public enum FailureClass {
  /** The system under test answered with an error (SQLState, Kafka error, HTTP or bulk item). */
  SERVER("server"),
  /** The request could not reach the system or its answer did not come back in time. */
  NETWORK("network"),
  /** The injector failed to send the request: its queue, pool or buffer was full, or it stopped. */
  INJECTOR("injector");

  /**
   * Lower-case fragments that make a reason the injector's: the request was queued, built or
   * started by the injector and failed there. A pool that ran out of connections without a
   * connection error (HikariCP's "Connection is not available" with no SQLState) is the injector's
   * too: its pool is too small for the load.
   */
  public static final List<String> INJECTOR_PHRASES =
      List.of(
          "queue full",
          "not started on time",
          "out of connections",
          "connection is not available",
          "request not built",
          "producer buffer full",
          "bufferexhausted");

  /** Lower-case fragments that make a reason the network's. */
  public static final List<String> NETWORK_PHRASES =
      List.of(
          "connection refused",
          "connection reset",
          "timeout",
          "timed out",
          "cannot connect",
          "closed by the server",
          "connection to ",
          "connectexception",
          "socketexception",
          "networkexception",
          "disconnectexception",
          "broken pipe",
          "no route to host",
          "unknown host",
          "unknownhostexception",
          "eofexception");

  private final String label;

  FailureClass(String label) {
    this.label = label;
  }

  /** The class's name as reports print it: "server", "network", "injector". */
  public String label() {
    return label;
  }

  /**
   * The class of a KO reason, by the rule in the class comment.
   *
   * @param reason a reason as recorded (null or blank is the server's: no reason given)
   * @return its class, never null
   */
  public static FailureClass of(String reason) {
    if (reason == null || reason.isBlank()) {
      return SERVER;
    }
    String r = reason.strip().toLowerCase(Locale.ROOT);
    if (r.startsWith("injector")) {
      return INJECTOR;
    }
    if (r.startsWith("network:")) {
      return NETWORK;
    }
    if (r.startsWith("server:")) {
      return SERVER;
    }
    if (r.startsWith("sqlstate ")) {
      return r.startsWith("sqlstate 08") ? NETWORK : SERVER;
    }
    if (r.startsWith("http ") || r.startsWith("bulk item")) {
      return SERVER;
    }
    if (INJECTOR_PHRASES.stream().anyMatch(r::contains)) {
      return INJECTOR;
    }
    if (NETWORK_PHRASES.stream().anyMatch(r::contains)) {
      return NETWORK;
    }
    return SERVER;
  }

  /**
   * Sums KO counts by reason into counts by class.
   *
   * @param errors KO count per reason, as {@link RequestTotals#errors()} gives them
   * @return the KO count of each class, every class present (0 when none), in declaration order
   */
  public static Map<FailureClass, Long> counts(Map<String, Long> errors) {
    Map<FailureClass, Long> counts = new EnumMap<>(FailureClass.class);
    for (FailureClass c : values()) {
      counts.put(c, 0L);
    }
    errors.forEach((reason, n) -> counts.merge(of(reason), n, Long::sum));
    return Collections.unmodifiableMap(counts);
  }
}
