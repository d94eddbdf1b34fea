package io.fusillade.health;

import java.io.EOFException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;
import java.util.Locale;
import java.util.Optional;

/**
 * Recognises the failures that mean a node cannot be reached, whatever client library wrapped them,
 * and names them the same way for every protocol: {@code "connection refused: 127.0.0.1:5432"}. The
 * phrases are those {@link io.fusillade.record.FailureClass} classes as network failures.
 */
public final class ConnectFailures {
  /** The node refused the connection: nothing listens on its port. */
  public static final String REFUSED = "connection refused";

  /** An open connection was reset or closed by the peer. */
  public static final String RESET = "connection reset";

  /** The node did not accept the connection in time. */
  public static final String CONNECT_TIMEOUT = "connect timeout";

  /** No route to the node's host. */
  public static final String NO_ROUTE = "no route to host";

  /** The node's host name does not resolve. */
  public static final String UNKNOWN_HOST = "unknown host";

  private ConnectFailures() {}

  /**
   * The kind of connection failure somewhere in {@code error}'s cause chain, or empty when it is
   * not one (a server's error answer, a failed check, a request timeout on a live connection).
   *
   * @param error what a client threw or completed with
   * @return one of this class's constants
   */
  public static Optional<String> kind(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(Locale.ROOT);
      if (t instanceof NoRouteToHostException
          || message.contains("no route to host")
          || message.contains("network is unreachable")) {
        return Optional.of(NO_ROUTE); // a ConnectException too, in some JDKs and in Netty
      }
      if (t instanceof ConnectException || message.contains("connection refused")) {
        return Optional.of(
            message.contains("timed out") || message.contains("timeout")
                ? CONNECT_TIMEOUT
                : REFUSED);
      }
      if (t instanceof UnknownHostException) {
        return Optional.of(UNKNOWN_HOST);
      }
      if (t instanceof SocketTimeoutException && message.contains("connect")) {
        return Optional.of(CONNECT_TIMEOUT);
      }
      if (message.contains("connection reset")
          || message.contains("broken pipe")
          || t instanceof EOFException
          || t instanceof ClosedChannelException
          || (t instanceof SocketException && message.contains("closed"))) {
        return Optional.of(RESET);
      }
    }
    return Optional.empty();
  }

  /**
   * The reason a request to {@code node} fails with: {@code "<kind>: <node>"}.
   *
   * @param kind one of this class's constants
   * @param node the node as {@code host:port}, without credentials
   * @return e.g. {@code "connection refused: 127.0.0.1:5432"}
   */
  public static String reason(String kind, String node) {
    return kind + ": " + node;
  }
}
