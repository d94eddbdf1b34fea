package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade ladder} as the analytical team ran it: the same query set at 1 and 2 sessions,
 * each level twice, on the embedded PostgreSQL; then again with one query three times as slow,
 * against the first ladder as the baseline: the table shows each query per level, and the slower
 * query's % change per level, judged worse, which exits 3.
 */
@Tag("slow")
class LadderCommandTest {
  @TempDir Path dir;

  private Path workload(String name, double longSleep) throws Exception {
    Path file = dir.resolve(name + ".yml");
    Files.writeString(
        file,
        """
        queries:
          - name: short
            sql: select pg_sleep(0.005)
          - name: long
            sql: select pg_sleep(%s)
        """
            .formatted(longSleep));
    return file;
  }

  private CliRun ladder(Path file, Path output, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "ladder",
                file.toString(),
                "--levels",
                "1,2",
                "--repeats",
                "2",
                "--output",
                output.toString()));
    args.addAll(List.of(more));
    return CliRun.of(args.toArray(String[]::new));
  }

  @Test
  void runsEachLevelRepeatedAndComparesLevelByLevelWithABaseline() throws Exception {
    Path baselineOut = dir.resolve("baseline");
    CliRun first = ladder(workload("fast", 0.02), baselineOut);
    assertThat(first.exitCode()).as(first.out() + first.err()).isZero();
    assertThat(first.out())
        .contains("Ladder: median time per query and level (median of 2 runs per level)")
        .containsPattern("query \\\\ sessions +1 +2")
        .containsPattern("short +\\d+\\.?\\d* ms +\\d+\\.?\\d* ms")
        // at least the query's 20-ms sleep at each level; how much more depends on the machine
        .containsPattern("long +(?:[2-9]\\d\\.\\d|\\d{3,}) ms +(?:[2-9]\\d\\.\\d|\\d{3,}) ms")
        .containsPattern("query set +\\d+\\.?\\d* ms")
        .contains("query set /s");
    Path baselineLadder;
    try (Stream<Path> list = Files.list(baselineOut)) {
      baselineLadder =
          list.filter(p -> p.getFileName().toString().startsWith("ladder-")).findFirst().get();
    }
    List<RunRecord> runs;
    try (Stream<Path> list = Files.list(baselineLadder)) {
      runs =
          list.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
              .map(RunRecordReader::read)
              .toList();
    }
    assertThat(runs).hasSize(4);
    assertThat(runs)
        .extracting(r -> r.manifest().parameters().get("level"))
        .containsExactlyInAnyOrder(1, 1, 2, 2);
    assertThat(runs)
        .allSatisfy(
            r ->
                assertThat(r.requests().get("query set").count())
                    .isEqualTo(((Number) r.manifest().parameters().get("level")).longValue()));

    CliRun second =
        ladder(
            workload("slow", 0.06),
            dir.resolve("candidate"),
            "--baseline",
            baselineLadder.toString());
    assertThat(second.out()).as(second.err()).contains("median %");
    // Each level's verdict is Welch's test over 2 runs a side: one slow run on a busy machine can
    // leave a level inconclusive ("~"), so the spec is that the slowdown is seen (a median change
    // of +50% or more), judged worse at one level at least, and fails the ladder.
    assertThat(second.out())
        .containsPattern("(?m)^\\s*long +.*\\+\\d+\\.\\d% worse")
        .containsPattern("(?m)^\\s*long +.* \\+([5-9]\\d|\\d{3,})\\.\\d%$");
    assertThat(second.exitCode()).as(second.out() + second.err()).isEqualTo(3);
  }
}
