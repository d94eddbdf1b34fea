package io.fusillade.local;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Where the {@code seq-db} binary is. seq-db is a Go program with no Maven artifact: it is built
 * from its public sources by {@code ../shared/seq-db/build.sh} (Go through the Go module proxy,
 * about 2 minutes once, then cached), and found, in this order, at
 *
 * <ol>
 *   <li>the path given ({@code --seqdb-binary}, {@link LocalSeqDb.Builder#binary}),
 *   <li>system property {@value #PROPERTY} (how {@code fusillade run} hands the option to its
 *       Gatling JVM),
 *   <li>environment variable {@value #ENV},
 *   <li>{@code seq-db} on the {@code PATH},
 *   <li>where {@code build.sh} puts it: {@code $FUSILLADE_SEQDB_HOME/seq-db}, else {@code
 *       ~/.cache/fusillade/seq-db/}{@value #COMMIT}{@code /seq-db}.
 * </ol>
 *
 * A path that is given (1 to 3) but is not an executable file is an error naming where it came
 * from, never passed over for the next.
 */
public final class SeqDbBinary {
  /** The environment variable naming the binary. */
  public static final String ENV = "FUSILLADE_SEQDB";

  /** The system property naming the binary. */
  public static final String PROPERTY = "fusillade.seqdb.binary";

  /** The seq-db commit {@code build.sh} builds, and the folder of its cache. */
  public static final String COMMIT = "bb7660b";

  /** What to do when there is none: one line. */
  public static final String HOW_TO_BUILD =
      "no seq-db binary: build it with ../shared/seq-db/build.sh (Go 1.24 or later, about 2"
          + " minutes once), then give the path it prints with --seqdb-binary PATH or "
          + ENV
          + "=PATH, or put seq-db on the PATH";

  private SeqDbBinary() {}

  /**
   * The binary, looked for as the class says.
   *
   * @param given a path given by the user, or null
   * @return the binary
   * @throws IllegalStateException with {@link #HOW_TO_BUILD} when there is none, or naming the
   *     option, property or variable whose path is not an executable file
   */
  public static Path require(String given) {
    return find(given, System.getenv()).orElseThrow(() -> new IllegalStateException(HOW_TO_BUILD));
  }

  /**
   * The binary, when there is one.
   *
   * @param given a path given by the user, or null
   * @param env the environment
   * @throws IllegalStateException naming the source whose path is not an executable file
   */
  public static Optional<Path> find(String given, Map<String, String> env) {
    if (given != null && !given.isBlank()) {
      return Optional.of(executable(given, "--seqdb-binary"));
    }
    String property = System.getProperty(PROPERTY);
    if (property != null && !property.isBlank()) {
      return Optional.of(executable(property, "--seqdb-binary"));
    }
    String variable = env.get(ENV);
    if (variable != null && !variable.isBlank()) {
      return Optional.of(executable(variable, ENV));
    }
    String path = env.getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      if (!dir.isBlank()) {
        Path candidate = Path.of(dir, "seq-db");
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    String home = env.get("FUSILLADE_SEQDB_HOME");
    Path cached =
        home != null && !home.isBlank()
            ? Path.of(home, "seq-db")
            : Path.of(
                System.getProperty("user.home"), ".cache", "fusillade", "seq-db", COMMIT, "seq-db");
    return Files.isRegularFile(cached) && Files.isExecutable(cached)
        ? Optional.of(cached)
        : Optional.empty();
  }

  private static Path executable(String path, String source) {
    Path binary = Path.of(path.strip());
    if (!Files.isRegularFile(binary) || !Files.isExecutable(binary)) {
      throw new IllegalStateException(
          source + " " + path + " is not an executable file; " + HOW_TO_BUILD);
    }
    return binary;
  }
}
