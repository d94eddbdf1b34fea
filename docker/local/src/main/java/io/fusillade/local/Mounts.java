package io.fusillade.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Small filesystems of a chosen size for an embedded server's data ({@code mount -t tmpfs -o
 * size=N}), so that a disk test fills a real filesystem and the server meets its own "no space
 * left" error; and their removal, at a normal close as after a crash ({@link StaleServers#delete},
 * the {@link OwnerWatch} script), so that no mount outlives its server directory.
 *
 * <p>Mounting needs root (or {@code CAP_SYS_ADMIN}): where it is refused, {@link #tmpfs} says why
 * and the caller falls back to a quota it checks itself.
 */
final class Mounts {
  private Mounts() {}

  /**
   * Mounts a tmpfs of {@code bytes} on {@code directory} (which exists).
   *
   * @return null when mounted, else why not (what {@code mount} said)
   */
  static String tmpfs(Path directory, long bytes) {
    return run("mount", "-t", "tmpfs", "-o", "size=" + bytes, "tmpfs", directory.toString());
  }

  /**
   * Unmounts (lazily: files a dying server still holds open do not keep it) every filesystem
   * mounted on or under {@code directory}, the deepest first. Nothing mounted there: nothing done.
   */
  static void unmountUnder(Path directory) {
    String root = directory.toAbsolutePath().normalize().toString();
    for (String mountPoint : mountPointsUnder(root)) {
      run("umount", "-l", mountPoint);
    }
  }

  /** The mount points at or under {@code root}, deepest first, from {@code /proc/self/mounts}. */
  static List<String> mountPointsUnder(String root) {
    List<String> found = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
        String[] fields = line.split(" ");
        if (fields.length > 1) {
          // octal escapes for spaces and tabs: a temporary directory of ours has none
          String point = fields[1];
          if (point.equals(root) || point.startsWith(root + "/")) {
            found.add(point);
          }
        }
      }
    } catch (IOException | RuntimeException notLinux) {
      return List.of();
    }
    found.sort(Comparator.comparingInt(String::length).reversed());
    return found;
  }

  /** Runs a command; null when it succeeded, else what it said. */
  private static String run(String... command) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      String said = new String(p.getInputStream().readAllBytes()).strip();
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return String.join(" ", command) + " did not end within 30 s";
      }
      return p.exitValue() == 0
          ? null
          : said.isEmpty() ? String.join(" ", command) + " exited " + p.exitValue() : said;
    } catch (IOException e) {
      return "cannot run " + command[0] + ": " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
