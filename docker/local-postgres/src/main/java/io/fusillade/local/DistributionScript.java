package io.fusillade.local;

import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell script the embedded PostgreSQL's library writes to find the Linux distribution ({@code
 * /tmp/detect_linux_distribution_*.sh}, once per JVM, when its {@code LinuxUtils} loads): removed
 * as soon as it has run. The library deletes it only when the JVM exits normally ({@code
 * deleteOnExit}), and the JVMs that start the servers often do not: a Fusillade run's Gatling JVM
 * ends with {@link Runtime#halt} to set its exit code, a killed one runs no hook at all. So every
 * run left one.
 *
 * <p>The script is the file of that name that appeared while the class loaded; one left by an
 * earlier JVM (older than a minute: the script runs in milliseconds) goes too. Another JVM loading
 * the class within the same moments could lose its script before running it: it would then log that
 * it cannot name the distribution, which the Linux binaries used here do not need. Only this user's
 * files are touched.
 */
final class DistributionScript {
  private static final Logger LOG = LoggerFactory.getLogger(DistributionScript.class);
  private static final String GLOB = "detect_linux_distribution_*.sh";
  private static final Duration STALE = Duration.ofMinutes(1);
  private static boolean settled; // guarded by DistributionScript.class

  private DistributionScript() {}

  /** Loads the library's {@code LinuxUtils} (once per JVM) and removes the script it wrote. */
  static synchronized void settle() {
    if (settled) {
      return;
    }
    settled = true;
    Path temp = Path.of(System.getProperty("java.io.tmpdir"));
    Set<Path> before = scripts(temp);
    LinuxUtils.getDistributionName(); // writes the script, runs it, keeps the answer
    Instant stale = Instant.now().minus(STALE);
    for (Path script : scripts(temp)) {
      try {
        boolean ours = Files.getOwner(script).getName().equals(System.getProperty("user.name"));
        if (ours
            && (!before.contains(script)
                || Files.getLastModifiedTime(script).toInstant().isBefore(stale))) {
          Files.deleteIfExists(script);
        }
      } catch (IOException e) {
        LOG.debug("Could not remove {}: {}", script, e.toString());
      }
    }
  }

  private static Set<Path> scripts(Path temp) {
    Set<Path> found = new HashSet<>();
    try (DirectoryStream<Path> scripts = Files.newDirectoryStream(temp, GLOB)) {
      scripts.forEach(found::add);
    } catch (IOException e) {
      LOG.debug("Could not list {}: {}", temp, e.toString());
    }
    return found;
  }
}
