package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaMainTest {
  @TempDir Path dir;

  /**
   * A broker JVM that cannot start (its port taken by another process) ends at once with the reason
   * on its output, rather than living on, its owner waiting for it to be ready.
   */
  @Tag("slow") // starts a JVM
  @Test
  void aBrokerWhosePortIsTakenEndsAtOnceWithTheReason() throws Exception {
    List<Integer> ports = FreePorts.of(2);
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), ports.get(0)));
      Path file = dir.resolve("server.properties");
      KafkaNodeConfig.write(
          KafkaNodeConfig.of(
              0,
              List.of(ports.get(0)),
              List.of(ports.get(0)),
              List.of(ports.get(1)),
              dir.resolve("logs"),
              Map.of()),
          file);
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      Process broker =
          new ProcessBuilder(
                  java.toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  KafkaMain.class.getName(),
                  file.toString(),
                  Uuid.randomUuid().toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("broker.log").toFile())
              .start();
      try {
        assertThat(broker.waitFor(60, TimeUnit.SECONDS)).as("the broker ended").isTrue();
        assertThat(broker.exitValue()).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("broker.log")))
            .contains("failed to bind to 127.0.0.1:" + ports.get(0));
      } finally {
        broker.destroyForcibly();
      }
    }
  }
}
