package io.fusillade.outside;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A child Maven, offline, for a project outside this build. Its local repository is its own (a
 * temporary directory holding this build's artifacts); everything else it copies from the local
 * repository this build used, declared as a {@code file://} mirror of every repository, which Maven
 * may read offline when told {@code aether.offline.protocols=file}. So the child uses exactly the
 * third-party artifacts this build downloaded, writes nothing into them, and needs no network.
 * (Maven 3.9's {@code maven.repo.local.tail} would avoid the copy, but the build accepts 3.8.)
 */
final class OfflineMaven {
  /** The id of the mirror, as Maven names it in a "could not find" message. */
  static final String MIRROR_ID = "build-repository";

  private static final Pattern NOT_FOUND =
      Pattern.compile("Could not find artifact (\\S+) in " + MIRROR_ID);

  private final Path executable;
  private final Path settings;

  private OfflineMaven(Path executable, Path settings) {
    this.executable = executable;
    this.settings = settings;
  }

  /**
   * Maven's launcher: {@code $maven.home/bin/mvn} (the build passes {@code maven.home} to the
   * tests), else {@code mvn} on the PATH.
   */
  static Optional<Path> executable() {
    String home = System.getProperty("maven.home", "");
    if (!home.isBlank()) {
      Path mvn = Path.of(home, "bin", "mvn");
      if (Files.isExecutable(mvn)) {
        return Optional.of(mvn);
      }
    }
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .filter(p -> !p.isBlank())
        .map(p -> Path.of(p, "mvn"))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /**
   * A child Maven whose local repository is {@code localRepository} and which reads every other
   * artifact from {@code buildRepository}; its settings file goes into {@code work}.
   */
  static OfflineMaven create(Path executable, Path work, Path localRepository, Path buildRepository)
      throws IOException {
    Path settings = work.resolve("settings.xml");
    Files.writeString(
        settings,
        """
        <settings>
          <localRepository>%s</localRepository>
          <offline>true</offline>
          <mirrors>
            <mirror>
              <id>%s</id>
              <mirrorOf>*</mirrorOf>
              <url>%s</url>
            </mirror>
          </mirrors>
        </settings>
        """
            .formatted(localRepository, MIRROR_ID, buildRepository.toUri()));
    return new OfflineMaven(executable, settings);
  }

  /** What a child Maven printed, and how it ended. */
  record Result(int exitCode, String output) {
    /**
     * Third-party artifacts the build's repository lacks (never downloaded by this build), which
     * offline Maven cannot get: the test is then not possible here, rather than failed.
     */
    List<String> missingThirdParty() {
      TreeSet<String> missing = new TreeSet<>();
      Matcher matcher = NOT_FOUND.matcher(output);
      while (matcher.find()) {
        if (!matcher.group(1).startsWith("io.fusillade:")) {
          missing.add(matcher.group(1));
        }
      }
      return List.copyOf(missing);
    }
  }

  /**
   * Runs {@code mvn -B -q -o} with {@code arguments} in {@code project}, its output in {@code log};
   * stops it (and the JVMs it forked) after {@code timeout}.
   */
  Result run(Path project, Path log, Duration timeout, String... arguments)
      throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of(
                executable.toString(),
                "-B",
                "-q",
                "-o",
                "-s",
                settings.toString(),
                "-Daether.offline.protocols=file"));
    command.addAll(List.of(arguments));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(project.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    // Maven itself needs little for one small project; start it quickly on two cores.
    builder.environment().put("MAVEN_OPTS", "-Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
    Process process = builder.start();
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          "mvn "
              + String.join(" ", arguments)
              + " did not end within "
              + timeout
              + ":\n"
              + Files.readString(log));
    }
    return new Result(process.exitValue(), Files.readString(log));
  }
}
