package io.fusillade.sql;

/**
 * What the client of one database node knows of the node's state, as its {@link SqlCluster} tracks
 * it: whether the node is down and why, and how to say that it went down.
 *
 * <p>A client marks its node down as soon as a connection to it is refused, reset or times out (see
 * {@link io.fusillade.health.ConnectFailures}); from then on requests for the node fail at once
 * with {@link #reason()} ("connection refused: 127.0.0.1:5432") instead of waiting for a
 * connection, until the cluster's background probe finds the node answering again (see {@link
 * io.fusillade.health.NodeWatch}). Thread-safe.
 */
public interface NodeHealth {

  /**
   * The health of a node used on its own, outside a cluster: never marked down, so its requests
   * wait for a connection as long as the connection timeout allows, and fail with the last
   * connection error after it.
   */
  NodeHealth NONE =
      new NodeHealth() {
        @Override
        public boolean isDown() {
          return false;
        }

        @Override
        public String reason() {
          return null;
        }

        @Override
        public boolean markDown(String reason) {
          return false;
        }
      };

  /** Whether the node is down now: one volatile read, cheap enough for every request. */
  boolean isDown();

  /** Why the node is down ("connection refused: 127.0.0.1:5432"), or null while it is up. */
  String reason();

  /**
   * Marks the node down, unless it already is, and starts probing it: a {@code node-down} event in
   * the run record.
   *
   * @param reason what requests to the node fail with meanwhile
   * @return true when the node was up until this call: the caller may then drop its connections
   */
  boolean markDown(String reason);
}
