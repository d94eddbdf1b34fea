package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.record.RunManifest;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --output} on a disk that fills during the run: a 2 MB tmpfs, most of it
 * taken by a file beforehand so that it fills within seconds. The run ends {@code failed} with the
 * cause and the file ({@code no space left on device (PATH)}), in one line, without a stack trace,
 * also with Gatling's own report asked for; it leaves no 0-byte report and no {@code .tmp} file,
 * and what was written stays readable ({@code fusillade summary}).
 *
 * <p>Mounting needs root: where it is refused the test is skipped, unless {@code CI=true}, where it
 * fails.
 */
@Tag("slow")
class DiskFullRunTest {
  /** What the run may use of the 2 MB. */
  private static final int FREE_BYTES = 160 * 1024;

  @TempDir Path dir;
  private Path disk;
  private boolean mounted;

  private static final String SQL =
      """
      tables_schema:
        - name: fill
          row_count: 50
          columns:
            - {name: id, type: integer, range: [1, 50], unique: true}
          primary_keys: [id]
      queries:
        - name: by id
          sql: select id from fill where id = $1::integer
          params:
            - {type: integer, range: [1, 50]}
      load: {mode: rate, rate: 300, duration: 60s}
      checks: []
      """;

  @BeforeEach
  void mountASmallDisk() throws Exception {
    disk = Files.createDirectories(dir.resolve("disk"));
    Process mount =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk.toString())
            .redirectErrorStream(true)
            .start();
    String said = new String(mount.getInputStream().readAllBytes()).strip();
    mounted = mount.waitFor() == 0;
    if (!"true".equals(System.getenv("CI"))) {
      assumeTrue(mounted, "mounting a tmpfs is not allowed here: " + said);
    }
    assertThat(mounted).as("mount a 2 MB tmpfs (CI=true): " + said).isTrue();
    long free = Files.getFileStore(disk).getUsableSpace();
    Files.write(disk.resolve("filler"), new byte[(int) Math.max(0, free - FREE_BYTES)]);
  }

  @AfterEach
  void unmount() throws Exception {
    if (mounted) {
      new ProcessBuilder("umount", "-l", disk.toString()).start().waitFor();
    }
  }

  /**
   * With Gatling's own report asked for: the run's record, its report and Gatling's all meet the
   * full disk. (Without that option the run takes the same path minus Gatling's report; the record
   * writer's failure alone is RecordWriteFailureRunTest's and RecordWriteFailureTest's.)
   */
  @Test
  void aFullOutputDiskFailsTheRunWithItsCauseAlsoWithGatlingsReport() throws Exception {
    runUntilTheDiskIsFull("--gatling-report");
  }

  private void runUntilTheDiskIsFull(String... options) throws Exception {
    Path workload = dir.resolve("full.yml");
    Files.writeString(workload, SQL);
    Path output = disk.resolve("out");
    // The real command in a JVM of its own: its console and its Gatling JVM's, as a user sees them.
    List<String> command =
        CliProcess.command("run", workload.toString(), "--output", output.toString());
    command.addAll(List.of(options));
    Path console = dir.resolve("console.txt");
    long started = System.nanoTime();
    Process cli =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(console.toFile())
            .start();
    boolean ended = cli.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
    if (!ended) {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly();
    }
    long seconds = (System.nanoTime() - started) / 1_000_000_000L;
    String all = Files.readString(console);
    System.out.println("DiskFullRunTest: the run ended after " + seconds + " s\n" + all);
    assertThat(ended).as(all).isTrue();

    Path record = record(output);
    RunManifest manifest = RunRecordReader.read(record).manifest();
    assertThat(manifest.status()).as(all).isEqualTo(RunStatus.FAILED);
    assertThat(manifest.statusReason())
        .as(all)
        .matches(
            "no space left on device \\("
                + java.util.regex.Pattern.quote(disk.toString())
                + "/.*\\); the run stopped at \\d+ s");
    assertThat(seconds).as("stopped at the full disk, not at the end of its 60 s").isLessThan(50);
    assertThat(cli.exitValue()).as(all).isEqualTo(1); // the run failed: not a user's mistake
    assertThat(all).as("no stack trace").doesNotContain("\tat ").doesNotContain("Exception");
    try (Stream<Path> files = Files.walk(output)) {
      List<Path> all0 = files.filter(Files::isRegularFile).toList();
      assertThat(all0)
          .as("no temporary file left")
          .noneMatch(p -> p.getFileName().toString().endsWith(".tmp"));
      assertThat(all0)
          .as("no empty report")
          .noneMatch(p -> p.getFileName().toString().equals("index.html") && size(p) == 0);
    }
    CliRun summary = CliRun.of("summary", record.toString());
    assertThat(summary.out())
        .as(summary.err())
        .contains("no space left on device")
        .contains("by id");
  }

  private static Path record(Path output) throws IOException {
    try (Stream<Path> runs = Files.list(output)) {
      return runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).findFirst().orElseThrow();
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      return -1;
    }
  }
}
