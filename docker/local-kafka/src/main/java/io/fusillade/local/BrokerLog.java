package io.fusillade.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** What a broker in its own JVM said in its log ({@code broker.log}, warnings and errors only). */
final class BrokerLog {
  private BrokerLog() {}

  /**
   * What the broker was doing when its disk filled, as its log says it ({@code Error while
   * appending records to t-0: No space left on device}: the ERROR line before the first {@code No
   * space left on device}, without its time, logger and directory); empty when its disk never
   * filled or the log cannot be read.
   */
  static Optional<String> diskFailure(Path log) {
    if (!Files.isReadable(log)) {
      return Optional.empty();
    }
    try (BufferedReader in = Files.newBufferedReader(log)) {
      String line;
      String error = null; // the last ERROR line: what the broker was doing when its disk failed
      while ((line = in.readLine()) != null) {
        if (line.contains("No space left on device")) {
          return Optional.of(
              error == null
                  ? "No space left on device"
                  : message(error) + ": No space left on device");
        }
        if (line.contains(" ERROR ")) {
          error = line;
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  /** An ERROR line's message: after the logger's {@code " - "}, its directory left out. */
  static String message(String line) {
    int start = line.indexOf(" - ");
    String message = start < 0 ? line.strip() : line.substring(start + 3).strip();
    return message.replaceAll(" in dir \\S+", "");
  }
}
