package io.fusillade.logs;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * For outage tests: a TCP port on 127.0.0.1 that forwards to a server, and that a test can stop
 * (the listening socket and every open connection close: new connections are refused, open ones
 * reset, as when the server's process dies) and start again on the same port. A node "down" and
 * "up" without stopping the real server, which an embedded OpenSearch cannot do on the same port.
 */
final class TcpForwarder implements AutoCloseable {
  private final int targetPort;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong sent = new AtomicLong();
  private volatile ServerSocket server;

  /** Forwards a free port to {@code targetPort}; started. */
  TcpForwarder(int targetPort) throws IOException {
    this.targetPort = targetPort;
    ServerSocket first = listen(0);
    this.port = first.getLocalPort();
    serve(first);
  }

  int port() {
    return port;
  }

  String url() {
    return "http://127.0.0.1:" + port;
  }

  /** Connections accepted so far. */
  long accepted() {
    return accepted.get();
  }

  /** Bytes forwarded from the clients to the target so far (requests: a bulk's documents). */
  long sent() {
    return sent.get();
  }

  /** Closes the port and every connection through it: the "node" is down. */
  synchronized void stop() throws IOException {
    ServerSocket s = server;
    server = null;
    if (s != null) {
      s.close();
    }
    for (Socket socket : sockets) {
      try {
        socket.setSoLinger(true, 0); // a reset, as a killed server's open connections get
      } catch (IOException alreadyClosed) {
        // its pump closed it
      }
      socket.close();
    }
    sockets.clear();
  }

  /** Listens on the same port again: the "node" is up. */
  synchronized void start() throws IOException {
    if (server == null) {
      serve(listen(port));
    }
  }

  private static ServerSocket listen(int port) throws IOException {
    ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress("127.0.0.1", port));
    return s;
  }

  private void serve(ServerSocket s) {
    server = s;
    daemon(
        () -> {
          while (!s.isClosed()) {
            try {
              Socket client = s.accept();
              Socket upstream = new Socket("127.0.0.1", targetPort);
              accepted.incrementAndGet();
              sockets.add(client);
              sockets.add(upstream);
              daemon(() -> pump(client, upstream, sent));
              daemon(() -> pump(upstream, client, new AtomicLong()));
            } catch (IOException closed) {
              // stopped
            }
          }
        });
  }

  private static void pump(Socket from, Socket to, AtomicLong bytes) {
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int n;
      while ((n = in.read(buffer)) >= 0) {
        out.write(buffer, 0, n);
        bytes.addAndGet(n);
      }
    } catch (IOException closed) {
      // either side closed
    } finally {
      try {
        from.close();
        to.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  private static void daemon(Runnable r) {
    Thread t = new Thread(r, "tcp-forwarder");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void close() throws IOException {
    stop();
  }
}
