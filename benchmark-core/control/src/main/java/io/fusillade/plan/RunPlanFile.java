package io.fusillade.plan;

import io.fusillade.FusilladeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A {@link RunPlan} as the file the command line hands to the JVM it forks: JSON (its schema is
 * {@code run-plan.schema.json} beside this class), in a directory of its own readable by its owner
 * only, because the plan may hold passwords (a JDBC URL's, an InfluxDB URL's). The reader deletes
 * the file and its directory as soon as it has read it; the writer deletes them when the fork is
 * over, in case it never read them.
 */
public final class RunPlanFile {
  /** The file's name in its directory. */
  static final String NAME = "plan.json";

  private RunPlanFile() {}

  /**
   * Writes the plan into a new private directory under the system's temporary directory.
   *
   * @return the plan's file
   * @throws FusilladeException when it cannot be written
   */
  public static Path write(RunPlan plan) {
    try {
      Path directory =
          Files.createTempDirectory(
              "fusillade-plan-",
              PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
      Path file = directory.resolve(NAME);
      PlanJson.write(plan, file, true);
      return file;
    } catch (IOException e) {
      throw new FusilladeException("cannot write the run plan: " + e);
    }
  }

  /**
   * Reads a plan file of this build's version.
   *
   * @throws FusilladeException naming the file when it cannot be read, is of another version or
   *     does not describe a plan
   */
  public static RunPlan read(Path file) {
    RunPlan plan = PlanJson.read(file, RunPlan.class);
    if (plan.version() != RunPlan.VERSION) {
      throw new FusilladeException(
          file
              + ": a run plan of version "
              + plan.version()
              + "; this build reads version "
              + RunPlan.VERSION);
    }
    return plan;
  }

  /** Reads the plan, then deletes its file and its directory (what {@link #write} made). */
  public static RunPlan take(Path file) {
    try {
      return read(file);
    } finally {
      delete(file);
    }
  }

  /** Deletes a plan file and its directory, if still there. */
  public static void delete(Path file) {
    try {
      Files.deleteIfExists(file);
      Path directory = file.getParent();
      if (directory != null && directory.getFileName().toString().startsWith("fusillade-plan-")) {
        Files.deleteIfExists(directory);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the run plan " + file, e);
    }
  }
}
