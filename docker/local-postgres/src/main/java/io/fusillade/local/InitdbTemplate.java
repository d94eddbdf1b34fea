package io.fusillade.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data directory as {@code initdb} leaves it, made once per machine and copied for each new
 * server: on two cores {@code initdb} takes about 1.2 s of a 1.3 s start, a copy of its 40 MB a
 * tenth of that, and a run, a test suite or a ladder starts many servers. Every embedded server is
 * initialised alike ({@code -A trust -U postgres -E UTF-8}; settings are given to the server when
 * it starts, not written by {@code initdb}), so one template serves them all.
 *
 * <p>It lives in the temporary directory, made by whichever JVM needs it first (into a directory of
 * its own, then renamed into place, so a JVM never copies a half-made one). A template that the
 * server binaries cannot start (other PostgreSQL binaries since it was made) is dropped: {@link
 * #forget()}, and the server is initialised afresh.
 */
final class InitdbTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(InitdbTemplate.class);
  // not "fusillade-pg-*": the stale-server reaper's directories
  private static final String NAME = "fusillade-pginit-template";

  private InitdbTemplate() {}

  private static Path location() {
    return Path.of(System.getProperty("java.io.tmpdir"), NAME);
  }

  /**
   * Copies the template into {@code data} (which must not exist yet), making the template first
   * when there is none.
   *
   * @return whether it did; false when no template could be made (the caller runs {@code initdb})
   */
  static boolean copyInto(Path data) {
    try {
      Path template = location().resolve("data");
      if (!Files.isRegularFile(template.resolve("postgresql.conf"))) {
        make();
      }
      BaseBackup.copy(template, data, Set.of());
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.debug("no initdb template: {}", e.toString());
      StaleServers.delete(data);
      return false;
    }
  }

  /** Drops the template, for the next server to make again. */
  static void forget() {
    StaleServers.delete(location());
  }

  private static void make() throws IOException {
    Path parent = Path.of(System.getProperty("java.io.tmpdir"));
    Path building = Files.createTempDirectory(parent, "fusillade-pginit-building-");
    try {
      // started once and stopped cleanly: initdb's files plus a shutdown checkpoint
      EmbeddedPostgres.builder()
          .setDataDirectory(building.resolve("data"))
          .setCleanDataDirectory(false)
          .start()
          .close();
      try {
        Files.move(building, location(), StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException raced) {
        // another JVM made it meanwhile: use theirs
      } catch (AtomicMoveNotSupportedException e) {
        throw new IOException("cannot rename " + building + " into place", e);
      }
    } finally {
      StaleServers.delete(building);
    }
  }
}
