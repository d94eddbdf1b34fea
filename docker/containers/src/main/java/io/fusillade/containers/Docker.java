package io.fusillade.containers;

import org.testcontainers.DockerClientFactory;

/** Whether a Docker engine answers, asked the way Testcontainers asks it. */
final class Docker {
  static final String UNAVAILABLE =
      "-D"
          + Servers.PROPERTY
          + "=containers needs a Docker engine and none answers (DOCKER_HOST,"
          + " /var/run/docker.sock); leave the property out to use the embedded servers";

  private Docker() {}

  /** True when Testcontainers finds a Docker engine; never throws. */
  static boolean available() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /** The address at which the engine publishes containers' ports (localhost for a local one). */
  static String host() {
    return DockerClientFactory.instance().dockerHostIpAddress();
  }
}
