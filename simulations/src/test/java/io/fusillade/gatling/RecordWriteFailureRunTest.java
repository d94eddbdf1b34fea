package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk fills up while a real Gatling run writes its record: the forked JVM runs under a file
 * size limit ({@code ulimit -f}), so the record's first write past it fails in the kernel, as on a
 * full disk (EFBIG rather than ENOSPC: the same failed write). The run stops at once with one clear
 * error naming the file, its record is failed with that reason, and it stays readable.
 */
@Tag("slow")
class RecordWriteFailureRunTest {
  @TempDir Path dir;

  @Test
  void aRecordThatCannotBeWrittenStopsTheRunWithOneClearError() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      GatlingLauncher launcher =
          GatlingLauncher.of(LongSelectSimulation.class)
              .withHeap("512m")
              .withRunsDirectory(dir.resolve("runs"))
              // The JVM's own performance counters are a 32 KB file: not under the limit.
              .withResults(dir.resolve("gatling"))
              .withoutReports()
              // Nothing but the records may reach the limit: not the JVM's performance counters
              // (a 32 KB file), not the native libraries Netty unpacks into /tmp.
              .withJvmOptions(
                  List.of(
                      "-XX:-UsePerfData",
                      "-Dgatling.ssl.useOpenSsl=false",
                      "-Dgatling.netty.useNativeTransport=false"))
              .withProperties(
                  Map.of("long.url", postgres.jdbcUrl(), "long.seconds", "120", "long.rate", "5"));
      List<String> command =
          new ArrayList<>(List.of("sh", "-c", "ulimit -f 40; exec \"$@\"", "sh"));
      command.addAll(launcher.command());
      Path output = dir.resolve("gatling.out");
      long started = System.nanoTime();
      Process process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      boolean ended = process.waitFor(100, TimeUnit.SECONDS);
      if (!ended) {
        process.destroyForcibly();
      }
      String printed = Files.readString(output);
      assertThat(ended).as("the run stopped before its 120 s\n" + printed).isTrue();
      long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();

      assertThat(dir.resolve("runs")).as(printed).isDirectory();
      Path record;
      try (Stream<Path> runs = Files.list(dir.resolve("runs"))) {
        record = runs.findFirst().orElseThrow();
      }
      assertThat(process.exitValue()).as(printed).isEqualTo(FusilladeRun.RUN_FAILED_EXIT);
      assertThat(printed)
          .as("one error, no stack trace; the summary repeats it as the run's reason")
          .containsOnlyOnce("Fusillade run record: cannot write ")
          .contains("FAILED: cannot write ")
          .doesNotContain("\tat ");
      RunRecord read = RunRecordReader.read(record);
      assertThat(read.manifest().status()).isEqualTo(RunStatus.FAILED);
      assertThat(read.manifest().statusReason())
          .matches(
              "cannot write .*/(counters\\.jsonl|latency\\.hlog): File too large;"
                  + " the run stopped at \\d+ s");
      assertThat(read.requests().get("select one").ok().getTotalCount()).isPositive();
      System.out.println("stopped after " + seconds + " s: " + read.manifest().statusReason());
    }
  }
}
