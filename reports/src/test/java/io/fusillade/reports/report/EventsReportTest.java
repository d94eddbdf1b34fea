package io.fusillade.reports.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.record.RunFiles;
import io.fusillade.reports.runs.SyntheticRecord;
import io.fusillade.reports.summary.SummaryTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node's outage recorded in {@code events.jsonl} shows in every view of the run: a table of
 * events and a red band on the time charts in the HTML report, an {@code events} list in {@code
 * summary.json}, and one line per event in the console text.
 */
class EventsReportTest {
  private static final long START = 1_700_000_000_000L;

  @TempDir Path base;

  @Test
  void aNodeDownAndUpIsListedInTheReportTheSummaryJsonAndTheConsole() throws Exception {
    Path dir = SyntheticRecord.run().start(START).seconds(30).write(base, "outage");
    Files.writeString(
        dir.resolve(RunFiles.EVENTS),
        """
        {"epochMs":%d,"kind":"node-down","target":"127.0.0.1:5432","detail":"connection refused: 127.0.0.1:5432"}
        {"epochMs":%d,"kind":"node-up","target":"127.0.0.1:5432","detail":"down for 6812 ms"}
        """
            .formatted(START + 11_000, START + 17_812));
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);

    String html = Files.readString(out.resolve("index.html"));
    assertThat(html)
        .contains("<h2 id=\"events\">Events</h2>")
        .contains("<td>+11.0 s</td><td>node-down</td><td>127.0.0.1:5432</td>")
        .contains("connection refused: 127.0.0.1:5432")
        .contains("<td>+17.8 s</td><td>node-up</td>")
        .contains("Red bands") // the outage drawn on the time charts
        .contains("#fde2e1");

    JsonNode events =
        new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("events");
    assertThat(events).hasSize(2);
    assertThat(events.get(0).get("atSeconds").asDouble()).isEqualTo(11.0);
    assertThat(events.get(0).get("kind").asText()).isEqualTo("node-down");
    assertThat(events.get(0).get("target").asText()).isEqualTo("127.0.0.1:5432");
    assertThat(events.get(0).get("detail").asText())
        .isEqualTo("connection refused: 127.0.0.1:5432");
    assertThat(events.get(1).get("atSeconds").asDouble()).isEqualTo(17.812);

    String console = SummaryTable.render(report.run());
    assertThat(console)
        .contains("Events:")
        .contains("   +11.0 s  node-down  127.0.0.1:5432  connection refused: 127.0.0.1:5432")
        .contains("   +17.8 s  node-up    127.0.0.1:5432  down for 6812 ms");
  }

  @Test
  void aRunWithoutEventsHasNoEventSectionAndAnEmptyList() throws Exception {
    Path dir = SyntheticRecord.run().start(START).seconds(5).write(base, "calm");
    Report report = Report.create(List.of(dir), List.of());
    Path out = base.resolve("out");
    report.write(out);
    assertThat(Files.readString(out.resolve("index.html"))).doesNotContain("id=\"events\"");
    assertThat(Files.readString(out.resolve("summary.json"))).contains("\"events\" : [ ]");
    assertThat(SummaryTable.render(report.run())).doesNotContain("Events:");
  }
}
