package io.fusillade.local;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Set;

/**
 * A copy of a running server's data directory from which a standby starts, made as {@code
 * pg_basebackup -R} makes one, which the embedded binaries do not include: PostgreSQL's low-level
 * backup API ({@code pg_backup_start}, a file copy, {@code pg_backup_stop}) on one session.
 *
 * <p>Files change while they are copied; that is what the API is for. From {@code pg_backup_start}
 * on, the primary writes whole pages to its WAL (even with {@code full_page_writes} off), and the
 * standby replays that WAL from the backup's start ({@code backup_label}) before it answers, so
 * torn pages are repaired. The WAL comes by streaming from a physical replication slot created
 * before the backup, so the primary keeps every segment the standby still needs.
 */
final class BaseBackup {
  private BaseBackup() {}

  /**
   * Directories whose contents a base backup leaves out (PostgreSQL's documentation, "Making a Base
   * Backup Using the Low Level API"): they are created empty.
   */
  private static final Set<String> EMPTIED =
      Set.of(
          "pg_wal",
          "pg_replslot",
          "pg_dynshmem",
          "pg_notify",
          "pg_serial",
          "pg_snapshots",
          "pg_stat_tmp",
          "pg_subtrans");

  /** Files of the running server that a standby must not have. */
  private static final Set<String> LEFT_OUT =
      Set.of(
          "postmaster.pid", "postmaster.opts", "epg-lock", "pg_internal.init", "backup_label.old");

  /**
   * Copies the server's data directory into {@code target} (which must not exist) as the base of a
   * standby that streams from the slot {@code slot} of the server at {@code primaryPort}.
   *
   * @param primary a superuser session on the primary
   * @param source the primary's data directory
   */
  static void cloneAsStandby(
      Connection primary, Path source, Path target, int primaryPort, String slot)
      throws SQLException, IOException {
    try (PreparedStatement create =
        primary.prepareStatement("select pg_create_physical_replication_slot(?, true)")) {
      create.setString(1, slot);
      create.execute();
    }
    try (PreparedStatement start = primary.prepareStatement("select pg_backup_start(?, true)")) {
      start.setString(1, "fusillade " + slot);
      start.execute();
    }
    String label;
    String tablespaces;
    try {
      copy(source, target, EMPTIED, true);
    } catch (IOException | RuntimeException e) {
      // Ended all the same: a session that leaves a backup running forces full page writes.
      try (PreparedStatement stop = primary.prepareStatement("select pg_backup_stop(false)")) {
        stop.execute();
      } catch (SQLException stopFailure) {
        e.addSuppressed(stopFailure);
      }
      throw e;
    }
    try (PreparedStatement stop =
            primary.prepareStatement("select labelfile, spcmapfile from pg_backup_stop(false)");
        ResultSet result = stop.executeQuery()) {
      result.next();
      label = result.getString(1);
      tablespaces = result.getString(2);
    }
    Files.writeString(target.resolve("backup_label"), label);
    if (tablespaces != null && !tablespaces.isEmpty()) {
      Files.writeString(target.resolve("tablespace_map"), tablespaces);
    }
    Files.writeString(target.resolve("standby.signal"), "");
    // As pg_basebackup -R writes them; not -c options, since the conninfo holds spaces.
    Files.writeString(
        target.resolve("postgresql.auto.conf"),
        "primary_conninfo = 'host=localhost port="
            + primaryPort
            + " user="
            + LocalPostgres.USER
            + " application_name="
            + slot
            + "'\nprimary_slot_name = '"
            + slot
            + "'\n",
        java.nio.file.StandardOpenOption.APPEND);
  }

  /**
   * Copies a stopped server's data directory whole, failing when a file vanishes meanwhile (the
   * directory was removed under the copy): the initdb template's copy.
   */
  static void copyAll(Path source, Path target) throws IOException {
    copy(source, target, Set.of(), false);
  }

  /**
   * Copies a data directory, leaving out the files of a running server ({@code postmaster.pid}...)
   * and the contents of the directories in {@code emptied}, which are created empty.
   *
   * @param live whether the server runs: its files may vanish under the copy
   */
  private static void copy(Path source, Path target, Set<String> emptied, boolean live)
      throws IOException {
    Files.walkFileTree(
        source,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
              throws IOException {
            Path copy = target.resolve(source.relativize(dir).toString());
            Files.createDirectories(copy);
            Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rwx------"));
            if (!dir.equals(source) && emptied.contains(dir.getFileName().toString())) {
              if (dir.getFileName().toString().equals("pg_wal")) {
                Files.createDirectories(copy.resolve("archive_status"));
                Files.createDirectories(copy.resolve("summaries"));
              }
              return FileVisitResult.SKIP_SUBTREE;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            if (LEFT_OUT.contains(file.getFileName().toString())) {
              return FileVisitResult.CONTINUE;
            }
            try {
              Files.copy(
                  file,
                  target.resolve(source.relativize(file).toString()),
                  StandardCopyOption.COPY_ATTRIBUTES);
            } catch (NoSuchFileException e) {
              if (!live) {
                throw e;
              }
              // removed by the server while the copy ran: the WAL replay recreates what matters
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
            if (live && e instanceof NoSuchFileException) {
              return FileVisitResult.CONTINUE;
            }
            throw e;
          }
        });
  }
}
