package io.fusillade.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the nodes of an embedded cluster, which must know each other's before any starts (a
 * Kafka quorum, OpenSearch's seed hosts) and come back on their own after a restart.
 *
 * <p>They are chosen at random below the kernel's ephemeral range (on Linux {@code
 * /proc/sys/net/ipv4/ip_local_port_range}, 32768 and up by default), never with a bind to port 0. A
 * port from the ephemeral range is free again the moment it is closed here, and the kernel hands it
 * to whatever binds to port 0 or connects next: with several test JVMs starting servers at once a
 * broker found its port taken before it bound it (CI, 2026-12-03). Below the range only another
 * random choice can take it.
 */
public final class FreePorts {
  /** The lowest port chosen: above the well-known and most registered services' ports. */
  static final int LOWEST = 10_000;

  /** The first port of the range when the kernel does not say (Linux's default). */
  static final int EPHEMERAL_DEFAULT = 32_768;

  private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
  private static final int ATTEMPTS = 1_000;

  private FreePorts() {}

  /**
   * {@code count} distinct ports free on 127.0.0.1 now, below the ephemeral range: all held open
   * together while they are chosen, so none is picked twice. Another process may still take one
   * before the node binds it, by choosing the same at random: a moment's race, as with any port
   * chosen ahead.
   *
   * @throws UncheckedIOException when too few ports are free there
   */
  public static List<Integer> of(int count) {
    return of(count, ephemeralStart());
  }

  static List<Integer> of(int count, int ephemeralStart) {
    int highest = Math.max(LOWEST + count, ephemeralStart) - 1;
    List<ServerSocket> sockets = new ArrayList<>();
    try {
      for (int attempt = 0; sockets.size() < count; attempt++) {
        if (attempt == ATTEMPTS) {
          throw new UncheckedIOException(
              new IOException(
                  "could not find "
                      + count
                      + " free ports on 127.0.0.1 between "
                      + LOWEST
                      + " and "
                      + highest));
        }
        bound(ThreadLocalRandom.current().nextInt(LOWEST, highest + 1)).ifPresent(sockets::add);
      }
      return sockets.stream().map(ServerSocket::getLocalPort).toList();
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

  /** A socket bound to {@code port} on 127.0.0.1, or empty when the port is taken. */
  private static Optional<ServerSocket> bound(int port) {
    ServerSocket socket;
    try {
      socket = new ServerSocket();
      // a port in TIME_WAIT after its last use may still be bound by the node
      socket.setReuseAddress(true);
    } catch (IOException e) {
      throw new UncheckedIOException("could not open a socket on 127.0.0.1", e);
    }
    try {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
      return Optional.of(socket);
    } catch (IOException taken) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // never bound: nothing to release
      }
      return Optional.empty();
    }
  }

  /** The first port of the kernel's ephemeral range, or {@value #EPHEMERAL_DEFAULT}. */
  static int ephemeralStart() {
    // Read line by line: Files.readString got "3" of "32768\t60999" from this procfs file.
    try (BufferedReader in = Files.newBufferedReader(EPHEMERAL_RANGE)) {
      return Integer.parseInt(in.readLine().trim().split("\\s+")[0]);
    } catch (IOException | RuntimeException e) {
      return EPHEMERAL_DEFAULT;
    }
  }
}
