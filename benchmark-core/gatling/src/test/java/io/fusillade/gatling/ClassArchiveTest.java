package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The injector JVM's AppCDS archive: dumped once by a real JVM, then mapped by the next. */
class ClassArchiveTest {
  private static final String JVM = "test-jvm 1";

  @TempDir Path directory;

  /** A jar of this test's class path: a class path of jars, as the packaged command's is. */
  private static String aJar() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> entry.endsWith(".jar") && entry.contains("assertj"))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theFirstJvmDumpsTheArchiveTheNextMapsIt() throws Exception {
    String jar = aJar();
    ClassArchive first = ClassArchive.of(directory.toString(), jar, JVM);
    assertThat(first.options()).anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit="));
    first.ended(java(first.options(), jar));
    assertThat(first.archive()).isRegularFile();
    assertThat(directory.toFile().list()).containsExactly(first.archive().getFileName().toString());

    ClassArchive next = ClassArchive.of(directory.toString(), jar, JVM);
    assertThat(next.archive()).isEqualTo(first.archive());
    List<String> options = new ArrayList<>(next.options());
    assertThat(options).contains("-XX:SharedArchiveFile=" + first.archive());
    // -Xshare:on: the JVM refuses to start unless it maps the archive
    options.add("-Xshare:on");
    assertThat(java(options, jar)).isZero();
  }

  @Test
  void aJvmKilledWhileDumpingLeavesNoArchive() throws IOException {
    ClassArchive archive = ClassArchive.of(directory.toString(), aJar(), JVM);
    String option = archive.options().get(0);
    Path dump = Path.of(option.substring(option.indexOf('=') + 1));
    Files.writeString(dump, "half an archive");
    archive.ended(137);
    assertThat(dump).doesNotExist();
    assertThat(archive.archive()).doesNotExist();
  }

  @Test
  void onlyAClassPathOfJarsGetsAnArchiveAndOffMeansNone() throws IOException {
    String jar = aJar();
    Path classes = Files.createDirectories(directory.resolve("classes"));
    assertThat(ClassArchive.of(null, jar + File.pathSeparator + classes, JVM)).isNull();
    assertThat(ClassArchive.of(null, jar + File.pathSeparator + "missing.jar", JVM)).isNull();
    assertThat(ClassArchive.of("off", jar, JVM)).isNull();
    assertThat(ClassArchive.of(null, jar, JVM).archive())
        .startsWithRaw(Path.of(System.getProperty("user.home"), ".cache", "fusillade", "cds"));
    assertThat(ClassArchive.of(null, jar, "another-jvm 2").archive())
        .isNotEqualTo(ClassArchive.of(null, jar, JVM).archive());
  }

  @Test
  void archivesUnusedForAMonthAndAbandonedDumpsAreDeleted() throws IOException {
    Instant now = Instant.parse("2026-11-27T00:00:00Z");
    Path used = touch("injector-a.jsa", now.minus(Duration.ofDays(2)));
    Path unused = touch("injector-b.jsa", now.minus(Duration.ofDays(31)));
    Path dumping = touch("injector-c.jsa.1.tmp", now.minus(Duration.ofMinutes(5)));
    Path abandoned = touch("injector-c.jsa.2.tmp", now.minus(Duration.ofHours(2)));
    Path other = touch("notes.txt", now.minus(Duration.ofDays(400)));
    ClassArchive.cleanUp(directory, now);
    assertThat(used).exists();
    assertThat(dumping).exists();
    assertThat(other).exists();
    assertThat(unused).doesNotExist();
    assertThat(abandoned).doesNotExist();
  }

  private Path touch(String name, Instant time) throws IOException {
    Path file = Files.writeString(directory.resolve(name), name);
    Files.setLastModifiedTime(file, FileTime.from(time));
    return file;
  }

  private static int java(List<String> options, String classPath) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.addAll(List.of("-cp", classPath, "-version"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    int exit = process.waitFor();
    assertThat(exit).as(output).isZero();
    return exit;
  }
}
