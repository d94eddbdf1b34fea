package io.fusillade.record;

/**
 * Requests that do something before the measured work and are measured nowhere: a session's {@code
 * select 1} that opens its connection before a ladder's timed query set. The recorder keeps none of
 * them ({@link RunRecorder#request}), so no table, check or chart counts them.
 */
public final class Untimed {
  /** What an untimed request's name starts with. */
  public static final String PREFIX = "untimed ";

  private Untimed() {}

  /** The name of an untimed request: {@code untimed warm-up}. */
  public static String name(String what) {
    return PREFIX + what;
  }

  /** Whether requests of this name are untimed. */
  public static boolean is(String requestName) {
    return requestName != null && requestName.startsWith(PREFIX);
  }
}
