package io.fusillade.record;

/**
 * Where a component reports {@link RunEvent}s. {@link RunRecorder} is one (it writes them to the
 * run record); {@link #NONE} drops them, for clients used outside a run.
 */
@FunctionalInterface
public interface RunEvents {

  /** Drops every event. */
  RunEvents NONE = (kind, target, detail) -> {};

  /**
   * Records that {@code kind} happened to {@code target} now.
   *
   * @param kind e.g. {@link RunEvent#NODE_DOWN}
   * @param target e.g. {@code 127.0.0.1:5432}; never with credentials
   * @param detail why, in one line, or null
   */
  void event(String kind, String target, String detail);
}
