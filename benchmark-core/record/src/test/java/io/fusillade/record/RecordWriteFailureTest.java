package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.FusilladeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk while the record is written: Linux's {@code /dev/full} fails every write with ENOSPC,
 * as a full disk does, so a file of the record linked to it goes through the real writers. The run
 * then stops with one clear reason, and what was written stays readable.
 */
class RecordWriteFailureTest {
  private static final Path FULL = Path.of("/dev/full");

  @TempDir Path base;
  private Path run;

  @BeforeEach
  void runDirectory() throws Exception {
    assumeTrue(Files.exists(FULL), "needs Linux's /dev/full");
    run = Files.createDirectory(base.resolve("full-run"));
  }

  @AfterEach
  void unlink() throws Exception {
    // JUnit would warn about links out of the temporary directory.
    for (String name :
        List.of(RunFiles.COUNTERS, RunFiles.HISTOGRAMS, RunFiles.MANIFEST + ".tmp")) {
      Path file = run.resolve(name);
      if (Files.isSymbolicLink(file)) {
        Files.delete(file);
      }
    }
  }

  private RunRecorder open() {
    return RunRecorder.openIn(
        run,
        RunOptions.of("io.example.Full")
            .withBaseDirectory(base)
            .withFlushInterval(Duration.ofMillis(50)));
  }

  @Test
  void aFullDiskUnderTheCountersStopsTheRunOnceWithTheFileAndTheReason() throws Exception {
    Files.createSymbolicLink(run.resolve(RunFiles.COUNTERS), FULL);
    List<String> told = new CopyOnWriteArrayList<>();
    RunRecorder recorder = open();
    recorder.onWriteFailure(told::add);
    RequestChannel q = recorder.request("q");
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (told.isEmpty() && System.nanoTime() < deadline) {
      long now = System.nanoTime();
      q.sent();
      q.ok(now, now + 1_000_000);
      Thread.sleep(5);
    }
    // The load goes on a little (the listener stops it asynchronously): no second report.
    for (int i = 0; i < 40; i++) {
      long now = System.nanoTime();
      q.sent();
      q.ok(now, now + 1_000_000);
      Thread.sleep(5);
    }
    recorder.close();

    assertThat(told).hasSize(1);
    String reason = told.get(0);
    assertThat(reason)
        .isEqualTo(
            "no space left on device ("
                + run.resolve(RunFiles.COUNTERS)
                + "); the run stopped at 0 s");
    assertThat(recorder.writeFailure()).isEqualTo(reason);
    assertThat(recorder.status()).isEqualTo(RunStatus.FAILED);
    assertThat(recorder.statusReason()).isEqualTo(reason);

    RunRecord record = RunRecordReader.read(run);
    assertThat(record.manifest().status()).isEqualTo(RunStatus.FAILED);
    assertThat(record.manifest().statusReason()).isEqualTo(reason);
  }

  @Test
  void aFullDiskUnderTheLatenciesIsNotSwallowed() throws Exception {
    // HdrHistogram writes through a PrintStream, which swallows write errors: the latencies would
    // silently stop being recorded.
    Files.createSymbolicLink(run.resolve(RunFiles.HISTOGRAMS), FULL);
    assertThatThrownBy(this::open)
        .isInstanceOf(FusilladeException.class)
        .hasMessage(
            "cannot write the run record: no space left on device ("
                + run.resolve(RunFiles.HISTOGRAMS)
                + ")");
  }

  @Test
  void aRunThatCannotWriteItsFinalManifestSaysSoAndKeepsTheFirst() throws Exception {
    RunRecorder recorder = open();
    long now = System.nanoTime();
    recorder.request("q").sent();
    recorder.request("q").ok(now, now + 1_000_000);
    recorder.flush();
    // The closing run.json goes through its temporary file: on a full disk, that write fails.
    Files.createSymbolicLink(run.resolve(RunFiles.MANIFEST + ".tmp"), FULL);
    recorder.close();
    assertThat(recorder.status()).isEqualTo(RunStatus.COMPLETED);
    RunRecord record = RunRecordReader.read(run);
    assertThat(record.manifest().status()).isEqualTo(RunStatus.RUNNING);
    assertThat(record.requests().get("q").ok().getTotalCount()).isEqualTo(1);
    assertThat(run.resolve(RunFiles.MANIFEST + ".tmp")).as("no temporary file left").doesNotExist();
    assertThat(run.resolve(RunRecorder.RESERVE)).doesNotExist();
  }
}
