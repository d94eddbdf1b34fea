package io.fusillade.containers;

import com.github.dockerjava.api.exception.NotFoundException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * The Docker engine as Testcontainers finds it: whether one answers, which images it has, and what
 * a test that needs one does without it.
 */
public final class Docker {
  static final String UNAVAILABLE =
      "-D"
          + Servers.PROPERTY
          + "=containers needs a Docker engine and none answers (DOCKER_HOST,"
          + " /var/run/docker.sock); leave the property out to use the embedded servers";

  /** The environment variable that says a build runs on a CI machine, which has an engine. */
  static final String CI = "CI";

  private Docker() {}

  /** The environment variable that turns Testcontainers' Ryuk off. */
  static final String RYUK_DISABLED = "TESTCONTAINERS_RYUK_DISABLED";

  /** The environment variable that turns Testcontainers' start-up checks off. */
  static final String CHECKS_DISABLED = "TESTCONTAINERS_CHECKS_DISABLE";

  /** The environment variable that gives Testcontainers the Docker host's address. */
  static final String HOST_OVERRIDE = "TESTCONTAINERS_HOST_OVERRIDE";

  private static volatile Boolean available;

  /**
   * True when Testcontainers finds a Docker engine. A local engine (a Unix socket) is asked first
   * whether it answers at all, so that none is said at once, and whether it has, or can pull, the
   * images Testcontainers itself starts.
   *
   * @throws ServersException when a local engine answers but lacks an image Testcontainers needs
   *     and cannot pull it (no registry answers): the message names the variable to set
   */
  public static boolean available() {
    Boolean known = available;
    if (known != null) {
      return known;
    }
    synchronized (Docker.class) {
      if (available == null) {
        available = ask();
      }
      return available;
    }
  }

  private static boolean ask() {
    EngineSocket socket = EngineSocket.local().orElse(null);
    if (socket != null) {
      if (!socket.answers()) {
        return false;
      }
      TestcontainersConfiguration configuration = TestcontainersConfiguration.getInstance();
      if (!configuration.isDisableChecks()) {
        requireImage(
            socket,
            tinyImage(configuration),
            "Testcontainers' start-up checks run",
            CHECKS_DISABLED + "=true to skip them");
      }
      if (Files.exists(Path.of("/.dockerenv")) && isBlank(System.getenv(HOST_OVERRIDE))) {
        // In a container, Testcontainers asks a container for the default gateway's address.
        requireImage(
            socket,
            tinyImage(configuration),
            "In a container (/.dockerenv), Testcontainers finds the Docker host's address with",
            HOST_OVERRIDE + "=localhost when the engine runs on this machine");
      }
      if (!"true".equalsIgnoreCase(System.getenv(RYUK_DISABLED))) {
        requireImage(
            socket,
            configuration.getRyukImage(),
            "Testcontainers' Ryuk (which removes what a killed JVM leaves) runs",
            RYUK_DISABLED
                + "=true to do without it (Fusillade's servers remove their containers when"
                + " closed)");
      }
    }
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }

  /**
   * The small image Testcontainers runs for its checks and to find the Docker host's address:
   * DockerClientFactory's own, else the configured one.
   */
  private static String tinyImage(TestcontainersConfiguration configuration) {
    try {
      Field tiny = DockerClientFactory.class.getDeclaredField("TINY_IMAGE");
      tiny.setAccessible(true);
      return ((DockerImageName) tiny.get(null)).asCanonicalNameString();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return configuration.getTinyImage();
    }
  }

  private static void requireImage(
      EngineSocket socket, String image, String whoRunsIt, String instead) {
    if (!socket.hasImage(image) && !socket.pull(image)) {
      throw new ServersException(
          whoRunsIt
              + " "
              + image
              + ", which the Docker engine at "
              + socket.path()
              + " does not have and cannot pull (no registry answers): set "
              + instead);
    }
  }

  /**
   * For a test that needs a Docker engine: returns when one answers; without one, skips the test (a
   * JUnit assumption, as Testcontainers' {@code disabledWithoutDocker} does) on a developer's
   * machine, and fails it where the environment variable {@code CI} is {@code true}: a CI machine
   * is set up with an engine ({@code .ci/run} starts one), and a test skipped there would pass
   * unseen.
   */
  public static void assumeAvailable() {
    if (available()) {
      return;
    }
    String reason = "no Docker engine answers (DOCKER_HOST, /var/run/docker.sock)";
    if ("true".equals(System.getenv(CI))) {
      Assertions.fail(CI + "=true but " + reason + ": .ci/run starts one");
    }
    Assumptions.abort(reason + ": skipped");
  }

  /** The address at which the engine publishes containers' ports (localhost for a local one). */
  static String host() {
    return DockerClientFactory.instance().dockerHostIpAddress();
  }

  /**
   * The address to publish a port on: 127.0.0.1 for a local engine (load stays on loopback), every
   * interface of a remote one (its clients come from elsewhere).
   */
  static String publishAddress() {
    String host = host();
    return host.equals("localhost") || host.equals("127.0.0.1") ? "127.0.0.1:" : "";
  }

  /** Whether the engine has {@code image} (by name and tag), without pulling it. */
  public static boolean hasImage(String image) {
    try {
      DockerClientFactory.lazyClient().inspectImageCmd(image).exec();
      return true;
    } catch (NotFoundException e) {
      return false;
    }
  }

  /**
   * The image to start a server from when its builder names none: {@code local}, the image {@code
   * docker/image/build-local.sh} builds from Debian packages and Maven artifacts, when the engine
   * has it (where no registry answers, it is the only way); else {@code upstream}, the project's
   * own, pulled as Testcontainers pulls any image.
   */
  static String image(String local, String upstream) {
    return hasImage(local) ? local : upstream;
  }
}
