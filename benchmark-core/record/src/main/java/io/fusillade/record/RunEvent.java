package io.fusillade.record;

import java.util.Objects;

/**
 * Something that happened at one moment of a run, beside the requests: a node of the system under
 * test went down or came back, a fault was injected. Written one per line to {@value
 * RunFiles#EVENTS} as it happens, so a run that is killed keeps every event before the kill.
 *
 * <p>Readers must accept kinds they do not know (and show them as plain events).
 *
 * @param epochMs when it happened, wall clock
 * @param kind what happened: {@link #NODE_DOWN}, {@link #NODE_UP} or another kind
 * @param target what it happened to, e.g. a node's {@code host:port} (never with credentials)
 * @param detail why or how, in one line (e.g. "connection refused: 127.0.0.1:5432"); may be empty
 */
public record RunEvent(long epochMs, String kind, String target, String detail) {

  /** A node stopped answering: its connections were refused, reset or timed out. */
  public static final String NODE_DOWN = "node-down";

  /** A node that was down answered the injector's probe again. */
  public static final String NODE_UP = "node-up";

  /**
   * A node of a cluster holds requests and answers none, though its connections stay open (a paused
   * or frozen server): new requests go to the other nodes until it answers again.
   */
  public static final String NODE_STALLED = "node-stalled";

  /** A stalled node answered again. */
  public static final String NODE_ANSWERING = "node-answering";

  public RunEvent {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(target, "target");
    detail = detail == null ? "" : detail;
  }

  /**
   * Seconds from the start of the run to this event.
   *
   * @param runStartEpochMs the run's start ({@link RunManifest#startEpochMs()})
   * @return the offset, negative for an event before the run opened
   */
  public double secondsFrom(long runStartEpochMs) {
    return (epochMs - runStartEpochMs) / 1000.0;
  }
}
