package io.fusillade.sql;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a server, for tests of a node that stops answering without refusing:
 * {@link #blackhole()} resets every proxied connection and leaves the port listening with a full
 * accept queue, so that the kernel drops new connections' SYNs and connecting times out, as with a
 * node behind a dropped route; {@link #restore()} proxies again.
 */
final class TcpProxy implements AutoCloseable {
  private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

  private final int target;
  private final int port;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile ServerSocket server;
  private ServerSocket hole;
  private final List<Socket> filler = new CopyOnWriteArrayList<>();

  TcpProxy(int target) throws IOException {
    this.target = target;
    ServerSocket first = new ServerSocket(0, 50, LOOPBACK);
    this.port = first.getLocalPort();
    serve(first);
  }

  int port() {
    return port;
  }

  private void serve(ServerSocket listening) {
    server = listening;
    Thread acceptor =
        new Thread(
            () -> {
              while (!listening.isClosed()) {
                try {
                  Socket client = listening.accept();
                  Socket upstream = new Socket(LOOPBACK, target);
                  sockets.add(client);
                  sockets.add(upstream);
                  pipe(client, upstream);
                  pipe(upstream, client);
                } catch (IOException closed) {
                  return;
                }
              }
            },
            "proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  private void pipe(Socket from, Socket to) {
    Thread pipe =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException e) {
                // one side went away: the other goes too
              }
              closeQuietly(to);
            },
            "proxy-pipe");
    pipe.setDaemon(true);
    pipe.start();
  }

  /** Resets every connection and makes new ones time out. */
  synchronized void blackhole() throws IOException {
    // The port never refuses: the hole is bound at once, before the connections are reset.
    server.close();
    hole = bind(1);
    // Fill the accept queue: once full, the kernel drops the SYNs of the next connections (the
    // attempt that times out is the proof).
    for (int i = 0; i < 4; i++) {
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(LOOPBACK, port), 300);
        filler.add(socket);
      } catch (java.net.SocketTimeoutException full) {
        closeQuietly(socket);
        break;
      }
    }
    for (Socket socket : sockets) {
      try {
        socket.setSoLinger(true, 0); // close with a reset
      } catch (IOException ignored) {
        // already closed
      }
      closeQuietly(socket);
    }
    sockets.clear();
  }

  /** Proxies again on the same port. */
  synchronized void restore() throws IOException {
    filler.forEach(TcpProxy::closeQuietly);
    filler.clear();
    hole.close();
    serve(bind(50));
  }

  /** Listens on the proxy's port again, retrying while the closed socket still holds it. */
  private ServerSocket bind(int backlog) throws IOException {
    for (int attempt = 0; ; attempt++) {
      ServerSocket socket = new ServerSocket();
      socket.setReuseAddress(true);
      try {
        socket.bind(new InetSocketAddress(LOOPBACK, port), backlog);
        return socket;
      } catch (java.net.BindException inUse) {
        socket.close();
        if (attempt >= 100) {
          throw inUse;
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw inUse;
        }
      }
    }
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closed already
    }
  }

  @Override
  public synchronized void close() throws IOException {
    server.close();
    if (hole != null) {
      hole.close();
    }
    filler.forEach(TcpProxy::closeQuietly);
    sockets.forEach(TcpProxy::closeQuietly);
  }
}
