package io.fusillade.plan;

import io.fusillade.FusilladeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A {@link RunResult} as the file the forked JVM writes for the command line: JSON, replaced whole
 * at each write (a reader never sees half of one).
 */
public final class RunResultFile {
  private RunResultFile() {}

  /**
   * Writes the result.
   *
   * @throws FusilladeException when it cannot be written
   */
  public static void write(RunResult result, Path file) {
    PlanJson.write(result, file, false);
  }

  /**
   * The result in the file, or empty when the forked JVM wrote none (it died before its record
   * opened) or the file cannot be read.
   */
  public static Optional<RunResult> read(Path file) {
    if (file == null || !Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(PlanJson.read(file, RunResult.class));
    } catch (FusilladeException e) {
      return Optional.empty();
    }
  }
}
