package io.fusillade.containers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A few plain requests to a local Docker engine's API on its Unix socket, without Testcontainers:
 * whether the engine answers, whether it has an image, whether it can pull one. Testcontainers,
 * where no registry answers, spends two minutes trying to pull the images of its own start-up
 * checks and of Ryuk, then reports that no engine answers; asked first, these say which setting to
 * change, at once.
 */
final class EngineSocket {
  private final Path socket;

  private EngineSocket(Path socket) {
    this.socket = socket;
  }

  /**
   * The engine's Unix socket: that of {@code DOCKER_HOST=unix://...}, else {@code
   * /var/run/docker.sock} when it exists; empty for an engine elsewhere (tcp://), which
   * Testcontainers alone judges.
   */
  static Optional<EngineSocket> local() {
    String host = System.getenv("DOCKER_HOST");
    if (host != null && !host.isBlank()) {
      return host.startsWith("unix://")
          ? Optional.of(new EngineSocket(Path.of(host.substring("unix://".length()))))
          : Optional.empty();
    }
    Path standard = Path.of("/var/run/docker.sock");
    return Files.exists(standard) ? Optional.of(new EngineSocket(standard)) : Optional.empty();
  }

  Path path() {
    return socket;
  }

  /** Whether an engine answers its ping on the socket. */
  boolean answers() {
    Response ping = request("GET", "/_ping");
    return ping.status() == 200;
  }

  /** Whether the engine has {@code image} (a name with its tag). */
  boolean hasImage(String image) {
    return request("GET", "/images/" + image + "/json").status() == 200;
  }

  /** Asks the engine to pull {@code image}; true when it did. */
  boolean pull(String image) {
    int colon = image.lastIndexOf(':');
    String query =
        colon > image.lastIndexOf('/')
            ? "fromImage=" + image.substring(0, colon) + "&tag=" + image.substring(colon + 1)
            : "fromImage=" + image;
    Response pulled = request("POST", "/images/create?" + query);
    // the engine answers 200 and streams the progress; a failure after the start is in the stream
    return pulled.status() == 200 && !pulled.body().contains("\"error\"");
  }

  private record Response(int status, String body) {}

  private Response request(String method, String path) {
    try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      channel.connect(UnixDomainSocketAddress.of(socket));
      // HTTP/1.0: the engine closes the connection after its answer, which ends the body
      String request =
          method + " " + path + " HTTP/1.0\r\nHost: docker\r\nContent-Length: 0\r\n\r\n";
      channel.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
      ByteArrayOutputStream answer = new ByteArrayOutputStream();
      Channels.newInputStream(channel).transferTo(answer);
      String text = answer.toString(StandardCharsets.UTF_8);
      int firstSpace = text.indexOf(' ');
      if (!text.startsWith("HTTP/") || firstSpace < 0 || text.length() < firstSpace + 4) {
        return new Response(-1, text);
      }
      int status = Integer.parseInt(text.substring(firstSpace + 1, firstSpace + 4));
      int body = text.indexOf("\r\n\r\n");
      return new Response(status, body < 0 ? "" : text.substring(body + 4));
    } catch (IOException | RuntimeException e) {
      return new Response(-1, String.valueOf(e.getMessage()));
    }
  }
}
