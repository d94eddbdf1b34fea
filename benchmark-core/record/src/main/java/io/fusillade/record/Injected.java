package io.fusillade.record;

/**
 * Requests injected on purpose to fail (fault injection: a syntax error, a constraint violation, a
 * statement that exceeds its timeout...), named {@code injected <kind>} so that every judge of a
 * run tells them apart from the workload's own: the error check, the abort rules and the limit
 * search leave them out of the system's errors unless a check names them, and the report shows them
 * beside the good requests.
 */
public final class Injected {
  /** The prefix of an injected request's name. */
  public static final String PREFIX = "injected ";

  private Injected() {}

  /**
   * The request name of an injected kind.
   *
   * @param kind e.g. {@code syntax error}
   * @return {@code injected syntax error}
   */
  public static String name(String kind) {
    return PREFIX + kind;
  }

  /**
   * Whether a request was injected to fail.
   *
   * @param requestName a request name
   * @return true for {@code injected ...}
   */
  public static boolean is(String requestName) {
    return requestName != null && requestName.startsWith(PREFIX);
  }
}
