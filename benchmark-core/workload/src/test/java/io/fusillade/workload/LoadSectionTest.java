package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Stage;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code load} section and the {@code checks} list: read, and every mistake at its place. */
class LoadSectionTest {

  private static final String QUERY =
      """
      queries:
        - sql: select 1
      """;

  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("w.yml", yaml, name -> null);
  }

  private static Workload valid(String yaml) {
    LoadResult result = parse(yaml);
    assertThat(result.problems()).isEmpty();
    return result.orThrow();
  }

  @Test
  void rateModeWithASpikeIsRead() {
    Workload w =
        valid(
            QUERY
                + """
                load:
                  mode: rate
                  rate: 200
                  duration: 90s
                  spike: {peak: 1000, rise: 5s, hold: 20s}
                """);
    Load load = w.load();
    assertThat(load.mode()).isEqualTo(Mode.RATE);
    assertThat(load.rate()).isEqualTo(200.0);
    assertThat(load.duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(load.spike())
        .isEqualTo(
            new RunSettings.Spike(
                1000, Duration.ofSeconds(5), Duration.ofSeconds(20), RunSettings.DEFAULT_FALL));
    assertThat(load.users()).isNull();
  }

  @Test
  void stagesRampHoldAndSpike() {
    Workload w =
        valid(
            QUERY
                + """
                load:
                  stages:
                    - {ramp: 0..200, over: 10s}
                    - {hold: 200, for: 1m}
                    - {spike: 1000, for: 5s}
                    - {ramp: 50, over: 20s}
                    - {ramp: 10.5..0, over: 500ms}
                """);
    assertThat(w.load().stages())
        .containsExactly(
            new Stage(0, 200, Duration.ofSeconds(10)),
            new Stage(200, 200, Duration.ofMinutes(1)),
            new Stage(1000, 1000, Duration.ofSeconds(5)),
            // after a spike, the rate before it: a ramp without a start goes on from there
            new Stage(200, 50, Duration.ofSeconds(20)),
            new Stage(10.5, 0, Duration.ofMillis(500)));
    assertThat(w.load().mode()).isNull();
  }

  @Test
  void stageMistakesAreReportedWithLineAndColumn() {
    LoadResult result =
        parse(
            QUERY
                + """
                load:
                  rate: 10
                  stages:
                    - {ramp: fast, over: 10s}
                    - {hold: 200}
                    - {hold: 200, over: 5s}
                    - {spike: 0, for: 5s}
                    - {hold: 1, spike: 2, for: 1s}
                    - {for: 1s}
                    - {ramp: 1..2, over: 0s}
                """);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:4:9 load.rate: give stages or rate, duration and spike, not both: stages state"
                + " the whole profile",
            "w.yml:6:14 load.stages[0].ramp: expected a rate such as 200 (from the rate before) or"
                + " a range such as 0..200, got the string \"fast\"",
            "w.yml:7:7 load.stages[1].for: missing required field",
            "w.yml:8:25 load.stages[2].over: over goes with ramp",
            "w.yml:9:15 load.stages[3].spike: a spike's peak must be > 0 arrivals/s, got 0",
            "w.yml:10:24 load.stages[4].spike: give one of ramp, hold or spike per stage, not hold"
                + " and spike",
            "w.yml:11:7 load.stages[5]: a stage is one of ramp (with over), hold or spike (with"
                + " for): {ramp: 0..200, over: 10s}, {hold: 200, for: 60s}, {spike: 1000, for:"
                + " 10s}",
            "w.yml:12:26 load.stages[6].over: over must be > 0, got 0s");
    assertThat(parse(QUERY + "load: {mode: queue, stages: []}\n").problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:3:29 load.stages: stages needs at least one stage",
            "w.yml:3:29 load.stages: stages goes with mode: rate (queue mode runs the queue once,"
                + " with users)");
  }

  @Test
  void theFileStagesGiveWayToARateProfileOnTheCommandLine() {
    Load file =
        new Load(null, null, null, null, null, List.of(new Stage(0, 5, Duration.ofSeconds(1))));
    assertThat(file.under(RunSettings.NONE).stages()).isEqualTo(file.stages());
    assertThat(file.under(RunSettings.NONE.withRate(3)).stages()).isEmpty();
    assertThat(file.under(RunSettings.NONE.withDuration(Duration.ofSeconds(3))).stages()).isEmpty();
  }

  @Test
  void workloadCheckShowsTheLoadAndTheChecks() {
    Workload w =
        valid(
            QUERY
                + """
                load: {rate: 200, duration: 1m, spike: {peak: 1000}}
                checks: [p99 < 50ms, errors < 1%]
                """);
    assertThat(WorkloadCommands.summary(w, 1))
        .contains("load: rate mode, 200/s for 60s, spike to 1000/s\n")
        .endsWith("checks: p99 < 50ms; errors < 1%\n");
    Workload queue = valid("config_name: QUEUE\n" + QUERY);
    assertThat(WorkloadCommands.summary(queue, 1)).contains("load: queue mode\n");
    assertThat(WorkloadCommands.summary(valid(QUERY), 1)).doesNotContain("load:", "checks:");
  }

  @Test
  void queueModeWithUsersIsRead() {
    Workload w = valid(QUERY + "load: {mode: queue, users: 16}\n");
    assertThat(w.load()).isEqualTo(new Load(Mode.QUEUE, 16, null, null, null));
  }

  @Test
  void configNameQueueSelectsQueueModeUnlessLoadSaysOtherwise() {
    assertThat(valid("config_name: QUEUE\n" + QUERY).load().mode()).isEqualTo(Mode.QUEUE);
    assertThat(valid("config_name: queue\n" + QUERY + "load: {users: 4}\n").load())
        .isEqualTo(new Load(Mode.QUEUE, 4, null, null, null));
    assertThat(valid("config_name: QUEUE\n" + QUERY + "load: {mode: rate}\n").load().mode())
        .isEqualTo(Mode.RATE);
    assertThat(valid("config_name: cars\n" + QUERY).load()).isEqualTo(Load.NONE);
  }

  @Test
  void theCommandLineOverridesTheFile() {
    Load file = new Load(Mode.RATE, null, 200.0, Duration.ofSeconds(90), null);
    RunSettings merged = file.under(RunSettings.NONE.withRate(50).withUsers(3).withMode(null));
    assertThat(merged.rate()).isEqualTo(50.0);
    assertThat(merged.duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(merged.mode()).isEqualTo(Mode.RATE);
    assertThat(merged.users()).isEqualTo(3);
  }

  @Test
  void checksAreKeptAsTextWithTheirPlace() {
    Workload w =
        valid(
            QUERY
                + """
                checks:
                  - p99 < 50ms
                  - 'errors < 1%'
                  - rate >= 99% of target
                """);
    assertThat(w.checks())
        .containsExactly(
            new CheckText("p99 < 50ms", new Location("w.yml", 4, 5), "checks[0]"),
            new CheckText("errors < 1%", new Location("w.yml", 5, 5), "checks[1]"),
            new CheckText("rate >= 99% of target", new Location("w.yml", 6, 5), "checks[2]"));
    assertThat(w.checks().get(1).problem("bad").toString()).isEqualTo("w.yml:5:5 checks[1]: bad");
  }

  @Test
  void abortRulesAreReadAndABadOneIsNamedAtItsPlace() {
    Workload w =
        valid(
            QUERY
                + """
                abort:
                  - errors > 5% over 10s
                  - abort when p99 > 2s over 30s
                """);
    assertThat(w.abort()).extracting(r -> r.metric()).containsExactly("errors", "p99");
    assertThat(w.abort().get(1).limit()).isEqualTo(2000.0);
    assertThat(valid(QUERY).abort()).isEmpty();

    LoadResult bad = parse(QUERY + "abort:\n  - errors > 5% over 10s\n  - errors over 5%\n");
    assertThat(bad.problems())
        .singleElement()
        .hasToString(
            "w.yml:5:5 abort[1]: abort rule 'errors over 5%' is not of the form 'errors > 5% over"
                + " 10s' or 'p99 > 2s over 30s'");
  }

  @Test
  void faultsAreReadEvenAnUnquotedCommandAndABadOneIsNamedAtItsPlace() {
    Workload w =
        valid(
            QUERY
                + """
                faults:
                  - at 30s pause postgres for 5s
                  - at 40s run: ssh db3 sudo systemctl stop postgresql
                """);
    assertThat(w.faults())
        .extracting(f -> f.label())
        .containsExactly("pause postgres for 5s", "run: ssh db3 sudo systemctl stop postgresql");
    assertThat(valid(QUERY).faults()).isEmpty();

    LoadResult bad = parse(QUERY + "faults:\n  - at 30s kill postgres\n  - kill postgres\n");
    assertThat(bad.problems())
        .singleElement()
        .hasToString(
            "w.yml:5:5 faults[1]: fault 'kill postgres': a fault starts with its time, e.g. 'at"
                + " 30s'; examples: "
                + io.fusillade.fault.Fault.EXAMPLES);
  }

  @Test
  void anEmptyChecksListIsDeclaredAndNoKeyIsNot() {
    // fusillade run gives default checks to a workload that says nothing, not to checks: []
    assertThat(valid(QUERY).checksDeclared()).isFalse();
    assertThat(valid(QUERY + "checks: []\n").checksDeclared()).isTrue();
    assertThat(valid(QUERY + "checks:\n").checksDeclared()).isTrue();
    assertThat(valid(QUERY + "checks: [errors < 1%]\n").checksDeclared()).isTrue();
    assertThat(valid(QUERY + "checks: []\n").checks()).isEmpty();
  }

  @Test
  void mistakesAreReportedWithLineAndColumn() {
    LoadResult result =
        parse(
            QUERY
                + """
                load:
                  mode: burst
                  rate: -5
                  duration: soon
                  spike: {rise: 5s}
                  user: 3
                checks:
                  - {p99: 50ms}
                  - ''
                """);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:4:9 load.mode: unknown mode 'burst' (one of queue, rate)",
            "w.yml:5:9 load.rate: rate must be > 0 arrivals/s, got -5",
            "w.yml:6:13 load.duration: expected a duration such as 30s, 500ms, 2m or 1h, got the"
                + " string \"soon\"",
            "w.yml:7:10 load.spike.peak: missing required field",
            "w.yml:8:3 load.user: unknown key 'user'; did you mean 'users'?",
            "w.yml:10:5 checks[0]: expected text, got a mapping",
            "w.yml:11:5 checks[1]: empty check (examples: p99 < 50ms, errors < 1%)");
  }

  @Test
  void settingsOfTheOtherModeAreReported() {
    assertThat(parse(QUERY + "load: {mode: queue, rate: 100}\n").problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:3:27 load.rate: rate goes with mode: rate (queue mode runs the queue once,"
                + " with users)");
    assertThat(parse(QUERY + "load: {users: 10}\n").problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:3:15 load.users: users goes with mode: queue (rate mode sends rate arrivals"
                + " per second)");
  }

  @Test
  void logsAndTopicsStateTheirLoadInTheirOwnSections() {
    LoadResult result =
        parse(
            """
            kafka: {bootstrap_servers: 'localhost:9092'}
            topics:
              - name: events
                rate: 10
            load: {rate: 100}
            """);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:5:7 load: load applies to queries; topics state their rate in each topic (rate"
                + " and duration, or steps)");
  }
}
