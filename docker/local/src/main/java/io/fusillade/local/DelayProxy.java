package io.fusillade.local;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on loopback in front of a local server, which can delay what the server sends
 * back: the network delay of a fault ({@code at 30s delay postgres by 50ms for 10s}) without root
 * or {@code tc netem}. Clients connect to {@link #port()}; each connection gets its own to the
 * server. With {@link #delay(Duration)} at zero (the default) bytes pass at once; with a delay,
 * every chunk the server sends is held until that long after it arrived, in order, so each answer
 * comes that much later and the round trip grows by it, as {@code netem delay} on the server's
 * interface does. Requests are not delayed.
 *
 * <p>Two threads per connection and direction's copy, in the JVM that started it: the traffic of a
 * delayed node (a broker's replication too) costs that JVM a copy of every chunk. While the server
 * behind it is stopped ({@link #refuse()}), the proxy's port refuses connections as the server's
 * would, so clients see the node down rather than connections that open and close. Closing stops
 * accepting and cuts every connection.
 */
public final class DelayProxy implements AutoCloseable {
  private final int port;
  private final InetSocketAddress server;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private ServerSocket listener; // guarded by this; null while refusing
  private volatile long delayNanos;
  private volatile boolean closed;

  private DelayProxy(ServerSocket listener, InetSocketAddress server) {
    this.port = listener.getLocalPort();
    this.server = server;
    this.listener = listener;
    startAccepting(listener);
  }

  /**
   * Starts forwarding a free loopback port to {@code host:port}.
   *
   * @throws UncheckedIOException when no port can be opened
   */
  public static DelayProxy start(String host, int port) {
    try {
      ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      return new DelayProxy(listener, new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new UncheckedIOException("could not open a port for the delay proxy", e);
    }
  }

  /** The port clients connect to. */
  public int port() {
    return port;
  }

  /** The port of the server behind the proxy. */
  public int upstreamPort() {
    return server.getPort();
  }

  /** Delays what the server sends by {@code delay} from now on; zero passes it at once. */
  public void delay(Duration delay) {
    delayNanos = Math.max(0, delay.toNanos());
  }

  /**
   * Stops accepting and cuts every connection, as the server stopping behind it would: its port
   * refuses connections until {@link #listenAgain()}. Refusing twice does nothing.
   */
  public synchronized void refuse() {
    ServerSocket current = listener;
    listener = null;
    if (current != null) {
      try {
        current.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
    sockets.forEach(this::closeQuietly);
  }

  /**
   * Accepts connections on its port again after {@link #refuse()}, when the server behind it is
   * back. Listening twice does nothing.
   *
   * @throws UncheckedIOException when the port cannot be bound again
   */
  public synchronized void listenAgain() {
    if (closed || listener != null) {
      return;
    }
    try {
      ServerSocket again = new ServerSocket();
      again.setReuseAddress(true);
      again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 50);
      listener = again;
      startAccepting(again);
    } catch (IOException e) {
      throw new UncheckedIOException("could not listen on port " + port + " again", e);
    }
  }

  private void startAccepting(ServerSocket socket) {
    Thread accept = new Thread(() -> accept(socket), "fusillade-delay-proxy-" + port);
    accept.setDaemon(true);
    accept.start();
  }

  private void accept(ServerSocket socket) {
    while (!socket.isClosed()) {
      try {
        Socket client = socket.accept();
        Socket upstream = new Socket();
        try {
          upstream.connect(server, 5_000);
        } catch (IOException refused) {
          client.close(); // as the server itself would: the client sees the connection fail
          continue;
        }
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        pipe(client, upstream, false);
        pipe(upstream, client, true);
      } catch (IOException e) {
        // one failed connection, the next may do; a closed listener ends the loop
      }
    }
  }

  /** A chunk read from one side, and when it may be written to the other. */
  private record Chunk(byte[] bytes, int length, long dueNanos) {}

  private static final Chunk END = new Chunk(new byte[0], -1, 0);

  private void pipe(Socket from, Socket to, boolean delayed) {
    BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
    String name = "fusillade-delay-proxy-" + from.getPort() + (delayed ? "-back" : "-forth");
    Thread reader =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream()) {
                byte[] buffer = new byte[16 * 1024];
                int n;
                while ((n = in.read(buffer)) >= 0) {
                  long due = delayed ? System.nanoTime() + delayNanos : 0;
                  chunks.add(new Chunk(java.util.Arrays.copyOf(buffer, n), n, due));
                }
              } catch (IOException e) {
                // the connection ended
              } finally {
                chunks.add(END);
              }
            },
            name + "-read");
    Thread writer =
        new Thread(
            () -> {
              try (OutputStream out = to.getOutputStream()) {
                while (true) {
                  Chunk chunk = chunks.poll(1, TimeUnit.SECONDS);
                  if (chunk == null) {
                    if (closed) {
                      return;
                    }
                    continue;
                  }
                  if (chunk == END) {
                    return;
                  }
                  long wait = chunk.dueNanos() - System.nanoTime();
                  while (wait > 0) {
                    LockSupport.parkNanos(wait);
                    wait = chunk.dueNanos() - System.nanoTime();
                  }
                  out.write(chunk.bytes(), 0, chunk.length());
                  out.flush();
                }
              } catch (IOException | InterruptedException e) {
                // the other side went away
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            name + "-write");
    reader.setDaemon(true);
    writer.setDaemon(true);
    reader.start();
    writer.start();
  }

  private void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
    sockets.remove(socket);
  }

  /** Stops accepting and cuts every connection. */
  @Override
  public void close() {
    closed = true;
    refuse();
  }
}
