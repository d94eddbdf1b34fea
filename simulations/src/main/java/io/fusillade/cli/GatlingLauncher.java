package io.fusillade.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a simulation with Gatling's launcher in a forked JVM on this JVM's classpath. Gatling calls
 * {@code System.exit} at the end of a run, hence the fork; its console output is the user's.
 */
final class GatlingLauncher {
  private GatlingLauncher() {}

  /** Returns Gatling's exit code: 0 success, 1 crash, 2 assertions failed. */
  static int run(Class<?> simulation, Map<String, String> properties, Path results)
      throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    String heap = System.getenv().getOrDefault("FUSILLADE_GATLING_HEAP", "1g");
    command.add("-Xmx" + heap);
    command.add("-XX:+UseParallelGC");
    // Gatling's log writer needs it (the Gatling plugin passes it too), and the plugin's inlining
    // options suit Gatling's Scala code.
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-XX:MaxInlineLevel=20");
    command.add("-XX:MaxTrivialSize=12");
    // One event loop per core rather than Netty's two: the native SQL engine runs its connections
    // on them, and every extra loop is one more thread to wake and switch on a busy machine.
    command.add("-Dio.netty.eventLoopThreads=" + Runtime.getRuntime().availableProcessors());
    // Netty's leak detector records a stack trace for one buffer in 128: CPU the load generator
    // takes from the system under test. Fusillade's tests run with it on.
    command.add("-Dio.netty.leakDetection.level=disabled");
    String logConfig = System.getProperty("logback.configurationFile");
    if (logConfig != null) {
      command.add("-Dlogback.configurationFile=" + logConfig);
    }
    properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.gatling.app.Gatling");
    command.add("-s");
    command.add(simulation.getName());
    command.add("-rf");
    command.add(results.toAbsolutePath().toString());
    Process process = new ProcessBuilder(command).inheritIO().start();
    return process.waitFor();
  }
}
