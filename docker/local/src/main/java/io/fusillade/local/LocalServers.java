package io.fusillade.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The embedded servers of every kind (PostgreSQL, Kafka, OpenSearch, seq-db) as a whole: for a
 * process that started a JVM which started servers, and must not leave them running when that JVM
 * dies.
 *
 * <p>Each server lives in its own directory under the temporary directory, with the pid of the JVM
 * that owns it, and a watchdog ({@link OwnerWatch}) that stops it and removes the directory the
 * moment that JVM ends, however it ends: PostgreSQL would otherwise run on in its own session. What
 * a watchdog could not stop (there was no shell, or an older version started it) is an orphan:
 * {@code fusillade run} calls {@link #stopOrphans} after its Gatling JVM ended, however it ended,
 * and each server's start reaps those of its kind.
 */
public final class LocalServers {
  private LocalServers() {}

  /**
   * Stops (SIGTERM, then SIGKILL after {@code grace}) every embedded server whose owning JVM is
   * gone, and removes its directory.
   *
   * @param grace how long each server gets to stop cleanly
   * @return the server directories removed
   */
  public static List<Path> stopOrphans(Duration grace) {
    List<Path> removed = new ArrayList<>();
    for (Map.Entry<String, String> kind : StaleServers.KINDS.entrySet()) {
      removed.addAll(StaleServers.reap(kind.getKey(), kind.getValue(), grace));
    }
    return removed;
  }
}
