package io.fusillade.local;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data directory as {@code initdb} leaves it, made once per machine and user and copied for each
 * new server: on two cores {@code initdb} takes about 1.2 s of a 1.3 s start, a copy of its 39 MB a
 * fifth of that, and a run, a test suite or a ladder starts many servers. Every embedded server is
 * initialised alike ({@code -A trust -U postgres -E UTF-8}; settings are given to the server when
 * it starts, not written by {@code initdb}), so one template serves them all.
 *
 * <p>It lives in the temporary directory, made by whichever JVM needs it first (in a server
 * directory of its own, which the stale-server reaper cleans should that JVM die, then renamed into
 * place, so a JVM never copies a half-made one). Only a template of this user's, private to it, is
 * used: another user's could hold settings that run commands. A copy that does not start where
 * {@code initdb} would have (made by other PostgreSQL binaries) drops the template: {@link
 * #forget()}. A template being dropped while a JVM copies it fails that copy, never leaves it
 * incomplete: the server is then initialised afresh.
 */
final class InitdbTemplate {
  private static final Logger LOG = LoggerFactory.getLogger(InitdbTemplate.class);
  // v1: initdb's options as above; not "fusillade-pg-*", the reaper's
  private static final String NAME = "fusillade-pginit-v1";
  private static volatile Path location = defaultLocation();

  private InitdbTemplate() {}

  private static Path defaultLocation() {
    return Path.of(System.getProperty("java.io.tmpdir"), NAME);
  }

  /** Where the template is kept; tests move it to a directory of their own ({@code null}: back). */
  static void locationForTests(Path directory) {
    location = directory != null ? directory : defaultLocation();
  }

  /**
   * Copies the template into {@code data} (which must not exist yet), making the template first
   * when there is none.
   *
   * @param owned the new server's own directory (made by this JVM): whose owner the template must
   *     have
   * @param prefix the server directories' prefix, for the one the template is made in
   * @return whether it did; false when no template could be used (the caller runs {@code initdb})
   */
  static boolean copyInto(Path data, Path owned, String prefix) {
    Path template = location;
    try {
      if (!Files.isRegularFile(template.resolve("data").resolve("postgresql.conf"))) {
        make(template, prefix);
      }
      if (!isPrivate(template, owned)) {
        LOG.warn(
            "{} is not a private directory of this user's: initdb for each server instead",
            template);
        return false;
      }
      BaseBackup.copyAll(template.resolve("data"), data);
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.debug("no initdb template: {}", e.toString());
      StaleServers.delete(data);
      return false;
    }
  }

  /** Drops the template, for the next server to make again; a copy under way then fails. */
  static void forget() {
    Path template = location;
    Path dropped =
        template.resolveSibling(template.getFileName() + "-dropped-" + System.nanoTime());
    try {
      Files.move(template, dropped, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      return; // dropped by another JVM already
    }
    StaleServers.delete(dropped);
    LOG.info("Dropped the initdb template of other PostgreSQL binaries: {}", template);
  }

  /** Owned by whoever owns {@code ours}, not a link, and no one else's to read or write. */
  private static boolean isPrivate(Path template, Path ours) throws IOException {
    if (Files.isSymbolicLink(template)) {
      return false;
    }
    if (!Files.getOwner(template, LinkOption.NOFOLLOW_LINKS).equals(Files.getOwner(ours))) {
      return false;
    }
    Set<PosixFilePermission> permissions =
        Files.getPosixFilePermissions(template, LinkOption.NOFOLLOW_LINKS);
    return permissions.stream().allMatch(p -> p.name().startsWith("OWNER_"));
  }

  private static void make(Path template, String prefix) throws IOException {
    // a server directory: should this JVM die while its server runs, the reaper stops it
    Path building = StaleServers.newServerDirectory(prefix);
    try {
      // started once and stopped cleanly: initdb's files plus a shutdown checkpoint
      EmbeddedPostgres.builder()
          .setDataDirectory(building.resolve("data"))
          .setCleanDataDirectory(false)
          .start()
          .close();
      Files.delete(building.resolve(StaleServers.OWNER));
      try {
        Files.move(building, template, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.isRegularFile(template.resolve("data").resolve("postgresql.conf"))) {
          throw e;
        }
        // another JVM made it meanwhile: use theirs
      }
    } finally {
      StaleServers.delete(building);
    }
  }
}
