package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.plan.RunPlanFile;
import io.fusillade.record.RunSettings;
import io.fusillade.system.ServerScraper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Gatling JVM's command line: what it shows to every user, and which results Gatling writes.
 */
class GatlingLauncherTest {
  @Test
  void aMonitoredServersPasswordStaysOffTheCommandLine() {
    GatlingLauncher secret =
        GatlingLauncher.of("x.Simulation")
            .withProperties(
                Map.of(ServerScraper.PROPERTY, "kafka http://admin:hunter2@k1:7071/metrics"));
    assertThat(String.join(" ", secret.command())).doesNotContain("hunter2", "fusillade.monitor");

    GatlingLauncher plain =
        GatlingLauncher.of("x.Simulation")
            .withProperties(Map.of(ServerScraper.PROPERTY, "db http://db1:9100/metrics"));
    assertThat(plain.command()).contains("-Dfusillade.monitor=db http://db1:9100/metrics");
  }

  @Test
  void gatlingWritesItsLogAndReportOnlyWhenAskedAndNoConsoleWhenFusilladePrintsProgress() {
    GatlingLauncher full = GatlingLauncher.of("x.Simulation");
    assertThat(full.command())
        .doesNotContain("-nr")
        .noneMatch(option -> option.startsWith("-Dgatling.data.writers"));

    assertThat(full.withoutReports().command()).contains("-nr", "-Dgatling.data.writers.0=console");

    assertThat(full.withoutReports().withProperties(Map.of(PlanProperties.PROGRESS, "5")).command())
        .contains("-nr", "-Dgatling.data.writers.0=none", "-Dfusillade.progress=5");
  }

  @Test
  void theChildJvmOptionsOfTheEnvironmentComeAfterTheLaunchersOwnAndBeforeTheLaunchs() {
    assertThat(GatlingLauncher.childJvmOptions(null)).isEmpty();
    assertThat(GatlingLauncher.childJvmOptions("  ")).isEmpty();
    List<String> command =
        GatlingLauncher.of("x.Simulation")
            .withJvmOptions(List.of("-Xlog:disable"))
            .command(" -XX:TieredStopAtLevel=1\t-Xlog:gc ", null);
    int c1 = command.indexOf("-XX:TieredStopAtLevel=1");
    assertThat(command.get(c1 + 1)).isEqualTo("-Xlog:gc");
    // later options win: the environment's over the launcher's GC and heap, a launch's over both
    assertThat(c1).isGreaterThan(command.indexOf("-XX:+UseParallelGC"));
    assertThat(c1).isLessThan(command.indexOf("-Xlog:disable"));
    assertThat(GatlingLauncher.of("x.Simulation").command(null, null))
        .noneMatch(option -> option.startsWith("-XX:TieredStopAtLevel"));
  }

  @Test
  void aRunPlanReachesTheJvmAsAFileNamedOnItsCommandLineAndNoSettingAsAProperty() {
    String url = "jdbc:postgresql://db/app?user=app&password=hunter2";
    RunPlan plan =
        RunPlan.DEFAULTS
            .withSettings(RunSettings.NONE.withUrls(List.of(url)).withRate(200))
            .withLive(new RunPlan.Live(null, null, null, "http://h/write?db=x&u=a&p=hunter2"))
            .withOutputs(
                new RunPlan.Outputs(
                    Path.of("/tmp/runs"), Path.of("/tmp/result.json"), 5, null, true));
    GatlingLauncher launcher = GatlingLauncher.of("x.Simulation").withoutReports().withPlan(plan);
    List<String> command = launcher.command();
    assertThat(String.join(" ", command))
        .doesNotContain("hunter2", "-Dfusillade.")
        .contains(GatlingMain.PLAN_OPTION + " PLAN", "-Dgatling.data.writers.0=none");
  }

  @Test
  void theJvmTakesItsPlanOutOfItsArgumentsAndDeletesTheFile() {
    Path file = RunPlanFile.write(RunPlan.DEFAULTS);
    String[] rest =
        GatlingMain.installPlan(new String[] {"--plan", file.toString(), "-s", "x.Simulation"});
    assertThat(rest).containsExactly("-s", "x.Simulation");
    assertThat(RunPlan.installed()).isTrue();
    assertThat(Files.exists(file)).isFalse();
  }
}
