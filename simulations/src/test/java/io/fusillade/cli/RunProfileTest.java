package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --jfr}: the load generator's own Java Flight Recorder profile lands in the
 * run record, holds CPU samples of its threads, is named in {@code run.json}, and the report links
 * it relative to itself.
 */
@Tag("slow")
class RunProfileTest {
  @TempDir Path dir;

  @Test
  void aProfiledRunLeavesAJfrRecordingInItsRecordThatTheReportLinks() throws Exception {
    Path file = dir.resolve("p.yml");
    Files.writeString(
        file,
        """
        queries:
          - sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        load: {mode: rate, rate: 200, duration: 3s}
        checks: []
        """);
    Path output = dir.resolve("out");
    CliRun run = CliRun.of("run", file.toString(), "--jfr", "--output", output.toString());
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    Path record = SummaryCommand.resolve(output);
    Path profile = record.resolve("profile.jfr");
    assertThat(profile).isRegularFile();
    List<RecordedEvent> events = RecordingFile.readAllEvents(profile);
    assertThat(events)
        .as("CPU samples of the load generator")
        .anyMatch(e -> e.getEventType().getName().equals("jdk.ExecutionSample"));
    assertThat(RunRecordReader.read(record).manifest().parameters())
        .containsEntry("profile", "profile.jfr");

    CliRun report = CliRun.of("report", record.toString());
    assertThat(report.exitCode()).as(report.err()).isZero();
    assertThat(Files.readString(record.resolve("report").resolve("index.html")))
        .contains("Profile of the load generator", "href=\"../profile.jfr\"");
  }
}
