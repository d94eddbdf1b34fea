package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports for the nodes of an embedded cluster, which must know each other's before any starts (a
 * Kafka quorum, OpenSearch's seed hosts) and come back on their own after a restart.
 */
public final class FreePorts {
  private FreePorts() {}

  /**
   * {@code count} distinct ports free on 127.0.0.1 now: all held open together while they are
   * chosen, so none is picked twice. Another process may take one before the node binds it: a
   * moment's race, as with any port chosen ahead.
   */
  public static List<Integer> of(int count) {
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        socket.setReuseAddress(true);
        sockets.add(socket);
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("could not find free ports on 127.0.0.1", e);
    } finally {
      for (ServerSocket socket : sockets) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // the port is still free for the node
        }
      }
    }
  }
}
