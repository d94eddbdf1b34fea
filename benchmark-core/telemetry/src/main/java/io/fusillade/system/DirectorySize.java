package io.fusillade.system;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.function.DoubleSupplier;
import java.util.stream.Stream;

/**
 * The bytes held by the files under some directories, as a gauge: a local server's data on disk
 * (the embedded Kafka's log directories, whose growth a topic's retention must bound). Files that
 * vanish while they are counted (a segment deleted by retention) are skipped, not an error.
 */
public final class DirectorySize implements DoubleSupplier {
  /** The prefix of these gauges: {@code directory.<label>.bytes}. */
  public static final String PREFIX = "directory.";

  private final List<Path> directories;
  private final String suffix;

  /**
   * @param directories the directories, counted together
   * @param suffix only files whose names end so are counted ({@code ""}: all). Kafka's index files
   *     are preallocated sparse files whose size overstates the disk they use: its log segments
   *     ({@code .log}) are what retention bounds.
   */
  public DirectorySize(List<Path> directories, String suffix) {
    this.directories = List.copyOf(directories);
    this.suffix = suffix;
  }

  /**
   * The gauge's name for a label.
   *
   * @param label letters, digits, '_' and '-'
   * @return {@code directory.<label>.bytes}
   */
  public static String gauge(String label) {
    if (!label.matches("[A-Za-z0-9_-]+")) {
      throw new IllegalArgumentException(
          "directory label \"" + label + "\" must be letters, digits, '_' or '-'");
    }
    return PREFIX + label + ".bytes";
  }

  /** The bytes now, or NaN when no directory can be read. */
  @Override
  public double getAsDouble() {
    long total = 0;
    boolean any = false;
    for (Path directory : directories) {
      try (Stream<Path> files = Files.walk(directory)) {
        total +=
            files
                .filter(f -> f.getFileName() != null && f.getFileName().toString().endsWith(suffix))
                .mapToLong(DirectorySize::size)
                .sum();
        any = true;
      } catch (IOException | UncheckedIOException e) {
        // gone, or being deleted: nothing this second
      }
    }
    return any ? total : Double.NaN;
  }

  private static long size(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return a.isRegularFile() ? a.size() : 0;
    } catch (IOException vanished) {
      return 0;
    }
  }
}
