package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog of a server directory, once its pipe ends (its owner's death, or {@link
 * OwnerWatch#close()}): what names the directory is stopped, a frozen process and its children
 * included, the directory removed; what does not name it is left alone.
 */
class OwnerWatchTest {
  @TempDir Path temp;

  @Test
  void theEndOfThePipeStopsWhatNamesTheDirectoryAndRemovesIt() throws Exception {
    Path directory = Files.createDirectories(temp.resolve("fusillade-watched"));
    Path other = Files.createDirectories(temp.resolve("fusillade-watched-not"));
    // a "server" naming the directory ($0 of sh -c), with a child that does not (a backend)
    Process server =
        new ProcessBuilder("sh", "-c", "sleep 300; :", directory.resolve("data").toString())
            .start();
    Process bystander =
        new ProcessBuilder("sh", "-c", "sleep 300; :", other.resolve("data").toString()).start();
    try {
      Thread.sleep(100); // its child started
      ProcessHandle child = server.children().findFirst().orElseThrow();
      Signals.send("STOP", "the server", server.pid()); // frozen by a fault
      OwnerWatch watch = OwnerWatch.start(directory, OwnerWatch.Stop.KILL, true);
      assertThat(watch.process().isAlive()).isTrue();

      watch.close();

      assertThat(watch.process().waitFor(5, TimeUnit.SECONDS)).as("the watchdog ended").isTrue();
      assertThat(server.waitFor(1, TimeUnit.SECONDS)).as("the server ended").isTrue();
      assertThat(ended(child)).as("its child").isTrue();
      assertThat(directory).doesNotExist();
      assertThat(bystander.isAlive()).as("what names another directory").isTrue();
      assertThat(other).isDirectory();
    } finally {
      server.destroyForcibly();
      bystander.destroyForcibly();
    }
  }

  /**
   * Whether a process that is not this JVM's child has ended within a second: gone, or a zombie
   * (where no process reaps the orphans, it stays one).
   */
  private static boolean ended(ProcessHandle process) throws InterruptedException {
    Path stat = Path.of("/proc", Long.toString(process.pid()), "stat");
    for (int i = 0; i < 20; i++) {
      try {
        String[] fields = Files.readString(stat).split(" ");
        if (fields[2].equals("Z")) {
          return true;
        }
      } catch (java.io.IOException gone) {
        return true;
      }
      Thread.sleep(50);
    }
    return false;
  }

  /**
   * A Ctrl-C reaches the terminal's whole process group, the watchdog with its owner: the watchdog
   * stays, to stop the server once the owner is gone.
   */
  @Test
  void theSignalsThatStopItsOwnerLeaveTheWatchdogRunning() throws Exception {
    Path directory = Files.createDirectories(temp.resolve("fusillade-signalled"));
    Process server =
        new ProcessBuilder("sh", "-c", "sleep 300; :", directory.resolve("data").toString())
            .start();
    try {
      OwnerWatch watch = OwnerWatch.start(directory, OwnerWatch.Stop.KILL, true);
      Thread.sleep(200); // its trap set
      for (String signal : List.of("INT", "QUIT", "HUP", "TERM")) {
        Signals.send(signal, "the watchdog", watch.process().pid());
      }
      assertThat(watch.process().waitFor(500, TimeUnit.MILLISECONDS))
          .as("the watchdog ended on a signal")
          .isFalse();

      watch.close(); // as the owner's death would

      assertThat(watch.process().waitFor(5, TimeUnit.SECONDS)).as("the watchdog ended").isTrue();
      assertThat(server.waitFor(1, TimeUnit.SECONDS)).as("the server ended").isTrue();
      assertThat(directory).doesNotExist();
    } finally {
      server.destroyForcibly();
    }
  }

  @Test
  void aSmallDiskMountedUnderTheDirectoryIsUnmountedBeforeTheDirectoryGoes() throws Exception {
    Path directory = Files.createDirectories(temp.resolve("fusillade-disk"));
    Path logs = Files.createDirectories(directory.resolve("data/logs"));
    String refused = Mounts.tmpfs(logs, 1024 * 1024);
    if (!"true".equals(System.getenv("CI"))) {
      org.junit.jupiter.api.Assumptions.assumeTrue(
          refused == null, "mounting a tmpfs is not allowed here: " + refused);
    }
    assertThat(refused).isNull();
    try {
      Files.write(logs.resolve("00000.log"), new byte[1000]);
      assertThat(Mounts.mountPointsUnder(directory.toString())).containsExactly(logs.toString());
      OwnerWatch watch = OwnerWatch.start(directory, OwnerWatch.Stop.KILL, true);

      watch.close(); // as the owner's death would

      assertThat(watch.process().waitFor(5, TimeUnit.SECONDS)).as("the watchdog ended").isTrue();
      assertThat(Mounts.mountPointsUnder(directory.toString())).as("unmounted").isEmpty();
      assertThat(directory).doesNotExist();
    } finally {
      Mounts.unmountUnder(directory);
    }
  }

  @Test
  void aDirectoryThatIsNotAServersIsRefused() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> OwnerWatch.start(Path.of("/tmp"), OwnerWatch.Stop.KILL, true))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
