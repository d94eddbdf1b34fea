package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.system.ServerScraper;
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

    assertThat(
            full.withoutReports()
                .withProperties(Map.of(FusilladeRun.PROGRESS_PROPERTY, "5"))
                .command())
        .contains("-nr", "-Dgatling.data.writers.0=none", "-Dfusillade.progress=5");
  }

  @Test
  void theChildJvmOptionsOfTheEnvironmentComeAfterTheLaunchersOwnAndBeforeTheLaunchs() {
    assertThat(GatlingLauncher.childJvmOptions(null)).isEmpty();
    assertThat(GatlingLauncher.childJvmOptions("  ")).isEmpty();
    List<String> command =
        GatlingLauncher.of("x.Simulation")
            .withJvmOptions(List.of("-Xlog:disable"))
            .command(" -XX:TieredStopAtLevel=1\t-Xlog:gc ");
    int c1 = command.indexOf("-XX:TieredStopAtLevel=1");
    assertThat(command.get(c1 + 1)).isEqualTo("-Xlog:gc");
    // later options win: the environment's over the launcher's GC and heap, a launch's over both
    assertThat(c1).isGreaterThan(command.indexOf("-XX:+UseParallelGC"));
    assertThat(c1).isLessThan(command.indexOf("-Xlog:disable"));
    assertThat(GatlingLauncher.of("x.Simulation").command(null))
        .noneMatch(option -> option.startsWith("-XX:TieredStopAtLevel"));
  }
}
