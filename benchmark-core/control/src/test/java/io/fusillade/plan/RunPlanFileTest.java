package io.fusillade.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.fusillade.FusilladeException;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitChain;
import io.fusillade.limit.LimitSettings;
import io.fusillade.record.CheckVerdict;
import io.fusillade.record.RunSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run plan and result files: what the command line and the forked JVM exchange. */
class RunPlanFileTest {
  @TempDir Path dir;

  /** A plan with every part set, so that a part the JSON forgets shows as a difference. */
  static RunPlan everything() {
    RunSettings settings =
        RunSettings.NONE
            .withMode(RunSettings.Mode.RATE)
            .withRate(250.5)
            .withDuration(Duration.ofSeconds(30))
            .withSpike(new RunSettings.Spike(500, null, Duration.ofSeconds(5), null))
            .withSteps(new RunSettings.Steps(List.of(10.0, 20.0), Duration.ofSeconds(3)))
            .withUsers(4)
            .withSeed(42L)
            .withWorkload(Path.of("/work/w.yml"))
            .withUrls(List.of("jdbc:postgresql://db/app?user=app&password=s3cret"))
            .withUser("app")
            .withEngine("native")
            .withPool(8)
            .withBalance("round-robin")
            .withSetup("auto")
            .withTeardown(true)
            .withStages(List.of(new RunSettings.Stage(0, 100, Duration.ofSeconds(10))))
            .withChecks(List.of("p99 < 50ms", "errors < 1%"));
    return RunPlan.DEFAULTS
        .withSettings(settings)
        .withScale(0.5)
        .withShare(new RunPlan.Share(3, 1, Instant.parse("2026-11-25T20:30:00Z")))
        .withControl(
            new RunPlan.Control(
                List.of("errors > 5% over 10s"),
                List.of("at 5s kill postgres for 2s"),
                Duration.ofSeconds(95)))
        .withTelemetry(
            new RunPlan.Telemetry(
                List.of("db=http://u:p@db:9100/metrics"),
                List.of("postgres"),
                Duration.ofMillis(50),
                10,
                true,
                List.of(
                    new RunPlan.LogSource(
                        "postgres",
                        Path.of("/tmp/pg/log/postgresql.log"),
                        java.util.Map.of("warning", "WARNING|could not send")))))
        .withLive(new RunPlan.Live(0, "127.0.0.1", Duration.ofSeconds(15), "http://h/write?p=x"))
        .withSql(
            new RunPlan.Sql(
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                2,
                List.of("jdbc:postgresql://r1/app"),
                List.of("work_mem=64MB"),
                new RunPlan.Requests(
                    Duration.ofMinutes(10),
                    3,
                    Duration.ofMillis(50),
                    "eu-1",
                    List.of("eu-1", "eu-2")),
                List.of("lite", "Q7")))
        .withLogs(new RunPlan.Logs(3, "data/*.ndjson", "seq-db", "/opt/seq-db", true))
        .withLimit(
            LimitSettings.DEFAULTS.withChain(
                new LimitChain(12.5, Duration.ofSeconds(10), 0.33, Duration.ofSeconds(20))))
        .withAdaptive(AdaptiveSettings.DEFAULTS.withStart(250).withSlo(List.of("p99 < 20ms")))
        .withLadder(new RunPlan.Ladder(2, Duration.ofMinutes(30), "cpu 1 burners 2 (taskset)"))
        .withOutputs(
            new RunPlan.Outputs(dir("/tmp/runs"), Path.of("/tmp/result.json"), 5, "name", false));
  }

  private static Path dir(String name) {
    return Path.of(name);
  }

  @Test
  void aPlanReadsBackEqualToWhatWasWritten() {
    RunPlan plan = everything();
    Path file = RunPlanFile.write(plan);
    try {
      assertThat(RunPlanFile.read(file)).isEqualTo(plan);
    } finally {
      RunPlanFile.delete(file);
    }
    assertThat(file).doesNotExist();
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void aPlanFileAndItsDirectoryAreTheOwnersAloneForTheyMayHoldPasswords() throws IOException {
    Path file = RunPlanFile.write(everything());
    try {
      assertThat(Files.getPosixFilePermissions(file))
          .containsExactlyInAnyOrder(
              PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
      assertThat(Files.getPosixFilePermissions(file.getParent()))
          .containsExactlyInAnyOrder(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE);
    } finally {
      RunPlanFile.delete(file);
    }
  }

  @Test
  void takingAPlanDeletesItsFile() {
    Path file = RunPlanFile.write(everything());
    RunPlan taken = RunPlanFile.take(file);
    assertThat(taken.settings().rate()).isEqualTo(250.5);
    assertThat(file.getParent()).doesNotExist();
  }

  @Test
  void theDefaultsAndAFullPlanFollowTheSchema() throws IOException {
    Schema schema;
    try (InputStream in = RunPlan.class.getResourceAsStream("run-plan.schema.json")) {
      schema =
          SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
              .getSchema(in, InputFormat.JSON);
    }
    for (RunPlan plan : List.of(RunPlan.DEFAULTS, everything())) {
      JsonNode json = PlanJson.MAPPER.valueToTree(plan);
      List<String> problems = schema.validate(json).stream().map(Error::toString).toList();
      assertThat(problems).as("%s", json).isEmpty();
    }
    JsonNode extra = PlanJson.MAPPER.valueToTree(RunPlan.DEFAULTS);
    ((com.fasterxml.jackson.databind.node.ObjectNode) extra).put("surprise", 1);
    assertThat(schema.validate(extra)).isNotEmpty();
  }

  @Test
  void aPlanOfAnotherVersionOrWithAnUnknownSettingIsRefusedNamingTheFile() throws IOException {
    Path file = dir.resolve("plan.json");
    String json = PlanJson.MAPPER.writeValueAsString(RunPlan.DEFAULTS);
    Files.writeString(file, json.replace("\"version\":1", "\"version\":2"));
    assertThatThrownBy(() -> RunPlanFile.read(file))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("version 2");
    Files.writeString(file, json.replace("{", "{\"surprise\":1,"));
    assertThatThrownBy(() -> RunPlanFile.read(file))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("surprise");
  }

  @Test
  void theDocumentedSystemPropertiesGiveThePlanAMavenRunRunsWith() {
    Properties p = new Properties();
    p.setProperty("fusillade.rate", "200");
    p.setProperty(PlanProperties.RUNS_DIRECTORY, "/tmp/r");
    p.setProperty(PlanProperties.LAG_THRESHOLD, "50");
    p.setProperty(PlanProperties.PROCESSES, "postgres, java");
    p.setProperty(PlanProperties.FAULTS, "at 5s kill postgres\n\nat 9s restart postgres");
    p.setProperty(PlanProperties.FAIL_BUILD, "false");
    p.setProperty(PlanProperties.INJECTORS, "2");
    p.setProperty(PlanProperties.INJECTOR_INDEX, "1");
    p.setProperty(PlanProperties.METRICS_HOLD, "1.5");
    RunPlan plan = PlanProperties.read(p, "db=http://db:9100/metrics");
    assertThat(plan.settings().rate()).isEqualTo(200.0);
    assertThat(plan.outputs().runsDirectory()).isEqualTo(Path.of("/tmp/r"));
    assertThat(plan.outputs().failBuild()).isFalse();
    assertThat(plan.telemetry().lagThreshold()).isEqualTo(Duration.ofMillis(50));
    assertThat(plan.telemetry().processes()).containsExactly("postgres", "java");
    assertThat(plan.telemetry().monitors()).containsExactly("db=http://db:9100/metrics");
    assertThat(plan.control().faults())
        .containsExactly("at 5s kill postgres", "at 9s restart postgres");
    assertThat(plan.share()).isEqualTo(new RunPlan.Share(2, 1, null));
    assertThat(plan.live().metricsHold()).isEqualTo(Duration.ofMillis(1500));
    assertThat(plan.limit()).isNull();
    assertThat(plan.adaptive()).isNull();
    assertThat(PlanProperties.read(new Properties(), null)).isEqualTo(RunPlan.DEFAULTS);
  }

  @Test
  void aPropertyOfTheWrongKindIsNamed() {
    Properties p = new Properties();
    p.setProperty(PlanProperties.INJECTORS, "two");
    assertThatThrownBy(() -> PlanProperties.read(p, null))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining(PlanProperties.INJECTORS);
  }

  @Test
  void aResultIsReplacedWholeAndReadBack() {
    Path file = dir.resolve("result.json");
    RunResultFile.write(RunResult.running(dir.resolve("run-1")), file);
    assertThat(RunResultFile.read(file)).hasValueSatisfying(r -> assertThat(r.ended()).isFalse());
    RunResult ended =
        new RunResult(
            RunPlan.VERSION,
            true,
            dir.resolve("run-1"),
            "completed",
            null,
            null,
            List.of(new CheckVerdict("p99 < 50ms", false, "FAILED: p99 < 50ms (p99 = 61 ms)")),
            ExitCode.CHECK_FAILED.code());
    RunResultFile.write(ended, file);
    assertThat(RunResultFile.read(file)).contains(ended);
    assertThat(dir.resolve("result.json.tmp")).doesNotExist();
    assertThat(RunResultFile.read(dir.resolve("none.json"))).isEmpty();
  }
}
