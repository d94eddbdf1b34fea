package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code fusillade run} hands its Gatling JVM besides the workload: the {@code fusillade.*}
 * settings given to it with {@code -D} (in {@code FUSILLADE_JAVA_OPTS}), which used to stop at the
 * fork; and its balancing and failover options, checked before anything starts.
 */
class RunOptionsForwardingTest {
  @TempDir Path dir;

  @Test
  void fusilladeSettingsOfThisJvmReachTheForkButNotItsParentPid() {
    Properties mine = new Properties();
    mine.setProperty("fusillade.failover", "5s");
    mine.setProperty("fusillade.system.processes", "postgres");
    mine.setProperty("fusillade.injector.lagThreshold", "50");
    mine.setProperty("fusillade.parentPid", "1234");
    mine.setProperty("user.home", "/root");
    assertThat(RunCommand.forwardedProperties(mine))
        .containsOnlyKeys(
            "fusillade.failover", "fusillade.system.processes", "fusillade.injector.lagThreshold")
        .containsEntry("fusillade.failover", "5s");
  }

  @Test
  void anUnknownBalanceOrABadFailoverIsAUserErrorBeforeTheFork() throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, "queries:\n  - sql: select 1\n");
    String url = "jdbc:postgresql://127.0.0.1:1/x";
    CliRun balance = CliRun.of("run", file.toString(), "--url", url, "--balance", "sticky");
    assertThat(balance.exitCode()).isEqualTo(2);
    assertThat(balance.err().strip())
        .isEqualTo(
            "fusillade: --balance: 'sticky' is not one of round-robin, random, weighted:2,1,1 or"
                + " consistent-hash");
    CliRun failover = CliRun.of("run", file.toString(), "--url", url, "--failover", "soon");
    assertThat(failover.exitCode()).isEqualTo(2);
    assertThat(failover.err().strip())
        .isEqualTo("fusillade: --failover: \"soon\" is not a duration (examples: 500ms, 2s, 1m)");
  }
}
