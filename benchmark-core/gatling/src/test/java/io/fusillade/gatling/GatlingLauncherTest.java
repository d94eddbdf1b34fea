package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.system.ServerScraper;
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

    assertThat(
            full.withoutReports()
                .withProperties(Map.of(FusilladeRun.PROGRESS_PROPERTY, "5"))
                .command())
        .contains("-nr", "-Dgatling.data.writers.0=none", "-Dfusillade.progress=5");
  }

  @Test
  void theChildJvmOptionsOfTheEnvironmentComeBeforeTheLaunchsOwnOptions() {
    assertThat(GatlingLauncher.childJvmOptions(null)).isEmpty();
    assertThat(GatlingLauncher.childJvmOptions("  ")).isEmpty();
    assertThat(GatlingLauncher.childJvmOptions(" -XX:TieredStopAtLevel=1\t-Xlog:gc "))
        .containsExactly("-XX:TieredStopAtLevel=1", "-Xlog:gc");
    // this project's surefire configuration sets the variable: the forks of its tests take it
    java.util.List<String> command =
        GatlingLauncher.of("x.Simulation")
            .withJvmOptions(java.util.List.of("-Xlog:disable"))
            .command();
    String env = System.getenv(GatlingLauncher.CHILD_JVM_OPTIONS_ENV);
    assertThat(env).as("set by the parent pom's surefire configuration").isNotBlank();
    assertThat(command.indexOf(env.strip()))
        .isPositive()
        .isLessThan(command.indexOf("-Xlog:disable"));
  }
}
