package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.gatling.GatlingLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How the topic tests run a simulation in a forked Gatling JVM, and read its record's maps. */
final class TopicRuns {
  private TopicRuns() {}

  /**
   * Runs {@code simulation} with the given {@code name=value} properties, its record under {@code
   * base}: a heap of 512 MiB, no Gatling report, at most 4 minutes.
   */
  static GatlingFork gatling(Path base, Class<?> simulation, String... properties)
      throws Exception {
    Map<String, String> values = new LinkedHashMap<>();
    for (String p : properties) {
      int eq = p.indexOf('=');
      values.put(p.substring(0, eq), p.substring(eq + 1));
    }
    GatlingLauncher launcher =
        GatlingFork.launcher(base, simulation)
            .withHeap("512m")
            .withoutReports()
            .withTimeout(Duration.ofMinutes(4))
            .withProperties(values);
    // For diagnosis, e.g. TOPIC_TEST_JVM_OPTS="-Xlog:gc:file=/tmp/gc.log".
    String extra = System.getenv("TOPIC_TEST_JVM_OPTS");
    if (extra != null && !extra.isBlank()) {
      launcher = launcher.withJvmOptions(List.of(extra.trim().split("\\s+")));
    }
    GatlingFork run = GatlingFork.run(launcher);
    assertThat(run.record()).as(run.output()).isNotNull();
    return run;
  }

  /**
   * A workload file of the test resources, {@code src/test/resources/workloads/NAME}, as a file:
   * the tests run in simulations/, and from a test-jar a resource is no file (cli-tests/pom.xml).
   */
  static Path testWorkload(String name) {
    Path file = Path.of("src/test/resources/workloads", name).toAbsolutePath();
    if (!java.nio.file.Files.isRegularFile(file)) {
      throw new IllegalStateException("no " + file + " (are the tests running in simulations/?)");
    }
    return file;
  }

  /** Runs a workload file of the test resources ({@code /workloads/NAME}) without code. */
  static GatlingFork workloadRun(Path base, String name) throws Exception {
    Path file = testWorkload(name);
    return gatling(
        base,
        io.fusillade.scenarios.topic.TopicWorkloadSimulation.class,
        "fusillade.workload=" + file);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Map<String, Object> m, String key) {
    assertThat(m).containsKey(key);
    return (Map<String, Object>) m.get(key);
  }

  static long number(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).longValue();
  }
}
