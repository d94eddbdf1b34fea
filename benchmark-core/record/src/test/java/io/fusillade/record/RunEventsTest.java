package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Events are written through as they happen and read back in time order. */
class RunEventsTest {
  @TempDir Path base;

  private RunRecorder open() {
    return RunRecorder.open(
        RunOptions.of("io.example.EventsSimulation")
            .withBaseDirectory(base)
            .withFlushInterval(Duration.ofMillis(100)));
  }

  @Test
  void eventsAreReadBackWithTheirTimesTargetsAndDetails() {
    Path directory;
    long start;
    try (RunRecorder run = open()) {
      directory = run.directory();
      start = run.startEpochMs();
      run.request("q").sent();
      run.request("q").ok(System.nanoTime(), System.nanoTime());
      run.event(RunEvent.NODE_DOWN, "127.0.0.1:5432", "connection refused: 127.0.0.1:5432");
      run.event(RunEvent.NODE_UP, "127.0.0.1:5432", null);
    }
    List<RunEvent> events = RunRecordReader.read(directory).events();
    assertThat(events)
        .extracting(RunEvent::kind, RunEvent::target, RunEvent::detail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                RunEvent.NODE_DOWN, "127.0.0.1:5432", "connection refused: 127.0.0.1:5432"),
            org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_UP, "127.0.0.1:5432", ""));
    assertThat(events.get(0).secondsFrom(start)).isBetween(0.0, 5.0);
  }

  @Test
  void anEventIsOnDiskBeforeTheRunCloses() throws Exception {
    try (RunRecorder run = open()) {
      run.event(RunEvent.NODE_DOWN, "10.0.0.3:9200", "connect timeout: 10.0.0.3:9200");
      // A kill now must not lose it: it is already in the file, whole.
      assertThat(Files.readAllLines(run.directory().resolve(RunFiles.EVENTS)))
          .singleElement()
          .asString()
          .contains("\"kind\":\"node-down\"", "\"target\":\"10.0.0.3:9200\"");
    }
  }

  @Test
  void aRunWithoutEventsHasNoFileAndReadsAsNone() {
    Path directory;
    try (RunRecorder run = open()) {
      directory = run.directory();
      run.request("q").sent();
      run.request("q").ok(System.nanoTime(), System.nanoTime());
    }
    assertThat(directory.resolve(RunFiles.EVENTS)).doesNotExist();
    assertThat(RunRecordReader.read(directory).events()).isEmpty();
  }

  @Test
  void anUnfinishedLastLineIsSkippedAndCounted() throws Exception {
    Path directory;
    try (RunRecorder run = open()) {
      directory = run.directory();
      run.request("q").sent();
      run.request("q").ok(System.nanoTime(), System.nanoTime());
      run.event(RunEvent.NODE_DOWN, "n1:1", "connection refused: n1:1");
    }
    Files.writeString(
        directory.resolve(RunFiles.EVENTS),
        "{\"epochMs\":1,\"kind\":\"node-u",
        java.nio.file.StandardOpenOption.APPEND);
    RunRecord record = RunRecordReader.read(directory);
    assertThat(record.events()).hasSize(1);
    assertThat(record.truncatedLines()).isEqualTo(1);
  }
}
