package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.system.ServerScraper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the Gatling JVM's command line shows to every user of the machine. */
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
}
