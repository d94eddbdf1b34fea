package io.fusillade.gatling;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The AppCDS archive of the injector JVM's classes: the JDK's own means of cutting a JVM's start,
 * for the run's fork ({@link GatlingLauncher}), which loads some 7,000 classes (Gatling, Scala,
 * Netty, the drivers) in a run, most before its first request.
 *
 * <p>The first run on a class path dumps the classes it loaded into an archive when its JVM ends
 * ({@code -XX:ArchiveClassesAtExit}, a few seconds more at its end, once); every later run maps
 * that archive ({@code -XX:SharedArchiveFile}) instead of reading, verifying and parsing those
 * classes again. Measured on the 2-core machine (busy with other builds: load average 4) with
 * {@code fusillade run workloads/accounts.yml --duration 3s}, 3 alternating rounds: 12.1-13.0 user
 * CPU-s with {@code FUSILLADE_CDS=off}, 10.3-11.7 with the archive; the run that dumped it took 7 s
 * more, once. Java 17 has no {@code -XX:+AutoCreateSharedArchive} (JDK 19), hence the two steps
 * here.
 *
 * <p>An archive is for one JVM and one class path exactly (the JVM checks each jar's size and
 * time): its name is a hash of the JVM, the class path and each entry's size and time, in {@code
 * ~/.cache/fusillade/cds} ({@value #ENV} names another directory, or {@code off}). It applies only
 * to a class path of jars, the packaged command's: the JVM refuses to start at all when asked to
 * dump with a non-empty directory on the class path (a build's {@code target/classes}: this
 * project's command-line tests run on its jars for that, see cli-tests/pom.xml). A dump is written
 * under a temporary name and renamed when its JVM has ended normally, so a JVM never maps a
 * half-written archive; archives unused for {@value #UNUSED_DAYS} days are deleted. The JVM's own
 * messages about an archive it cannot use are silenced: it then runs without, as it would have
 * anyway.
 */
final class ClassArchive {
  /** The environment variable of the archives' directory, or {@code off} for none. */
  static final String ENV = "FUSILLADE_CDS";

  /**
   * The system property that tells a forked JVM it dumps an archive when it ends: one whose parent
   * is gone ends without ({@link ParentWatch}), since nobody is left to keep the dump.
   */
  static final String DUMPING_PROPERTY = "fusillade.cds.dumping";

  static final int UNUSED_DAYS = 30;
  private static final Duration ABANDONED_DUMP = Duration.ofHours(1);
  private static final String SUFFIX = ".jsa";

  private final Path archive;
  private final Path dump;

  private ClassArchive(Path archive, Path dump) {
    this.archive = archive;
    this.dump = dump;
  }

  /**
   * The archive for this JVM's class path, or null when none applies: {@value #ENV} is {@code off},
   * or the class path holds anything but jars.
   */
  static ClassArchive forThisJvm() {
    return of(
        System.getenv(ENV),
        System.getProperty("java.class.path", ""),
        System.getProperty("java.home") + " " + System.getProperty("java.vm.version"));
  }

  static ClassArchive of(String setting, String classPath, String jvm) {
    if ("off".equalsIgnoreCase(setting) || classPath.isBlank()) {
      return null;
    }
    StringBuilder identity = new StringBuilder(jvm).append('\n');
    for (String entry : classPath.split(File.pathSeparator)) {
      Path jar = Path.of(entry);
      try {
        if (!entry.endsWith(".jar") || !Files.isRegularFile(jar)) {
          return null;
        }
        identity
            .append(jar.toAbsolutePath())
            .append(' ')
            .append(Files.size(jar))
            .append(' ')
            .append(Files.getLastModifiedTime(jar).toMillis())
            .append('\n');
      } catch (IOException e) {
        return null;
      }
    }
    Path directory =
        setting == null || setting.isBlank()
            ? Path.of(System.getProperty("user.home"), ".cache", "fusillade", "cds")
            : Path.of(setting);
    Path archive = directory.resolve("injector-" + sha256(identity.toString()) + SUFFIX);
    return new ClassArchive(
        archive, directory.resolve(archive.getFileName() + "." + UUID.randomUUID() + ".tmp"));
  }

  /** The JVM options: map the archive when it exists, else dump one at the JVM's end. */
  List<String> options() {
    // the JVM prints why it could not map an archive on standard output: never the run's business
    List<String> quiet = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    if (Files.isReadable(archive)) {
      try {
        // its time is its last use, for the clean-up of archives no longer used
        Files.setLastModifiedTime(archive, FileTime.from(Instant.now()));
      } catch (IOException e) {
        // read-only: it is used all the same, and never cleaned up by age
      }
      return concat("-XX:SharedArchiveFile=" + archive, quiet);
    }
    try {
      Files.createDirectories(archive.getParent());
    } catch (IOException e) {
      return List.of();
    }
    List<String> dumping = new java.util.ArrayList<>(quiet);
    dumping.add("-D" + DUMPING_PROPERTY + "=true");
    return concat("-XX:ArchiveClassesAtExit=" + dump, dumping);
  }

  /** Whether this JVM dumps an archive when it ends: it was started with {@link #options()}'s. */
  static boolean dumpingAtExit() {
    return Boolean.getBoolean(DUMPING_PROPERTY);
  }

  /**
   * After the JVM of {@link #options()} ended: its dump becomes the archive when it ended on its
   * own (an exit code under 128, not a signal), else it is deleted; old archives are cleaned up.
   */
  void ended(int exitCode) {
    try {
      if (Files.exists(dump)) {
        if (exitCode < 128 && Files.size(dump) > 0) {
          move(dump, archive);
        } else {
          Files.deleteIfExists(dump);
        }
      }
      cleanUp(archive.getParent(), Instant.now());
    } catch (IOException e) {
      // an archive is a saving, never a reason for a run to fail
    }
  }

  Path archive() {
    return archive;
  }

  /** Deletes the archives unused for {@value #UNUSED_DAYS} days and the dumps of dead JVMs. */
  static void cleanUp(Path directory, Instant now) throws IOException {
    if (!Files.isDirectory(directory)) {
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        Instant used = Files.getLastModifiedTime(file).toInstant();
        boolean stale =
            name.endsWith(SUFFIX)
                ? used.isBefore(now.minus(Duration.ofDays(UNUSED_DAYS)))
                : name.endsWith(".tmp") && used.isBefore(now.minus(ABANDONED_DUMP));
        if (stale) {
          Files.deleteIfExists(file);
        }
      }
    }
  }

  private static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static List<String> concat(String first, List<String> rest) {
    return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), rest.stream())
        .toList();
  }

  private static String sha256(String text) {
    try {
      byte[] hash =
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is in every JVM", e);
    }
  }
}
