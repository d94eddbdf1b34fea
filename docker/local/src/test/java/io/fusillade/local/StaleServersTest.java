package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The reaper stops what a killed JVM left running, a node frozen by a fault included, and removes
 * its directory; a live owner's directory is left alone.
 */
class StaleServersTest {
  private static final String PREFIX = "fusillade-test-reap-";

  @Test
  void aFrozenNodeOfAKilledOwnerIsStoppedAndItsDirectoryRemoved() throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor(10, TimeUnit.SECONDS);
    Process node = new ProcessBuilder("sleep", "120").start();
    Path stale = Files.createTempDirectory(PREFIX);
    Path live = StaleServers.newServerDirectory(PREFIX); // owned by this JVM
    try {
      Files.writeString(stale.resolve(StaleServers.OWNER), Long.toString(gone.pid()));
      Path data = Files.createDirectories(stale.resolve("node-2").resolve("data"));
      Files.writeString(data.resolve("opensearch.pid"), Long.toString(node.pid()));
      new ProcessBuilder("kill", "-STOP", Long.toString(node.pid())).start().waitFor();

      long start = System.nanoTime();
      List<Path> removed = StaleServers.reap(PREFIX, "opensearch.pid", Duration.ofSeconds(20));

      assertThat(node.waitFor(5, TimeUnit.SECONDS)).as("the frozen node, stopped").isTrue();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("on SIGTERM, not after the grace")
          .isLessThan(Duration.ofSeconds(10));
      assertThat(removed).containsExactly(stale);
      assertThat(stale).doesNotExist();
      assertThat(live).isDirectory();
    } finally {
      node.destroyForcibly();
      StaleServers.delete(stale);
      StaleServers.delete(live);
    }
    assertThat(live).doesNotExist();
  }
}
