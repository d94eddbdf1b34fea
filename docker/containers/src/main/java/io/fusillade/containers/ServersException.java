package io.fusillade.containers;

/**
 * The servers asked for cannot be started this way: an unknown {@code -Dfusillade.servers}, no
 * Docker engine for containers, a topology the chosen kind does not offer. Its message says what to
 * change; it is the user's setting, not a bug, so callers print the message, not the stack trace.
 */
public final class ServersException extends RuntimeException {
  public ServersException(String message) {
    super(message, null, false, false); // a setting to change, not a place in the code
  }
}
