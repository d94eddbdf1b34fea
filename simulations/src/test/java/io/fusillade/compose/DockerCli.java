package io.fusillade.compose;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.containers.Docker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The {@code docker} command as a user types it, for the tests of the compose files and of the
 * injector image: its exit code and output, within a time limit.
 */
public final class DockerCli {
  /** The top of the checkout. */
  public static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  private static final Path LOCAL_IMAGES = ROOT.resolve("docker/compose/local-images.env");

  private DockerCli() {}

  /** What a command did. */
  public record Result(int exitCode, String output) {}

  /** Runs {@code docker ARGS} with {@code env} added to this JVM's environment. */
  public static Result docker(Duration timeout, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("docker"));
    command.addAll(List.of(args));
    return run(timeout, env, command);
  }

  /** Runs a command of the checkout (a script), from its top. */
  public static Result run(Duration timeout, Map<String, String> env, List<String> command)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(ROOT.toFile());
    builder.environment().putAll(env);
    Process process = builder.redirectErrorStream(true).start();
    // read while it runs: a full pipe would block it
    StringBuilder output = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try {
                output.append(
                    new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                output.append("(output lost: ").append(e.getMessage()).append(')');
              }
            });
    reader.start();
    if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    reader.join(10_000);
    return new Result(process.isAlive() ? -1 : process.exitValue(), output.toString());
  }

  /**
   * For a test of the compose files: a Docker engine and Compose v2 ({@code docker compose}: the
   * files' top-level name and {@code up --wait}). Without them the test is skipped, or fails where
   * CI=true ({@code .ci/run} provides both).
   */
  public static void assumeCompose() throws IOException, InterruptedException {
    Docker.assumeAvailable();
    Result version = docker(Duration.ofSeconds(30), Map.of(), "compose", "version");
    if (version.exitCode() != 0) {
      String reason =
          "no Docker Compose v2 ('docker compose version': " + version.output().strip() + ")";
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("CI=true but " + reason + ": .ci/run builds it");
      }
      Assumptions.abort(reason);
    }
  }

  /**
   * {@code docker compose [--env-file docker/compose/local-images.env] -f docker/compose/FILE
   * ARGS}: with the images built here (docker/image/build-local.sh) when the engine has them, as
   * where no registry answers.
   */
  public static Result compose(
      String file, Duration timeout, Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("compose"));
    if (localImages()) {
      command.addAll(List.of("--env-file", LOCAL_IMAGES.toString()));
    }
    command.addAll(List.of("-f", ROOT.resolve("docker/compose").resolve(file).toString()));
    command.addAll(List.of(args));
    return docker(timeout, env, command.toArray(String[]::new));
  }

  /** {@code up -d --wait}, which must succeed. */
  public static void up(String file, Map<String, String> env) throws Exception {
    Result up = compose(file, Duration.ofMinutes(3), env, "up", "-d", "--wait");
    assertThat(up.exitCode()).as("docker compose -f %s up: %s", file, up.output()).isZero();
  }

  /**
   * {@code down -v}: the stack's containers, network and volumes removed, the containers killed at
   * once (their data goes too: no clean shutdown to wait for).
   */
  public static void down(String file, Map<String, String> env) throws Exception {
    Result down = compose(file, Duration.ofMinutes(2), env, "down", "-v", "--timeout", "0");
    assertThat(down.exitCode()).as("docker compose -f %s down: %s", file, down.output()).isZero();
  }

  private static boolean localImages() {
    return Docker.hasImage("fusillade/postgres:15") || "true".equals(System.getenv("CI"));
  }
}
