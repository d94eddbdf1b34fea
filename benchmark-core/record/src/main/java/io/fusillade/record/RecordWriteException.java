package io.fusillade.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A file of the run record could not be written (a full disk, a file system gone read-only). Its
 * message names the file and the operating system's reason, in one line: {@code no space left on
 * device (/runs/r1/counters.jsonl)}, {@code cannot write /runs/r1/counters.jsonl: File too large}.
 */
final class RecordWriteException extends UncheckedIOException {
  private final Path file;

  RecordWriteException(Path file, IOException cause) {
    super(AtomicFile.failure(file, cause), cause);
    this.file = file;
  }

  /** The file that could not be written. */
  Path file() {
    return file;
  }

  /** The system's words ("No space left on device"), without the path the JDK often prepends. */
  static String reason(IOException cause) {
    String message = cause.getMessage();
    if (message == null || message.isBlank()) {
      return cause.getClass().getSimpleName();
    }
    int newline = message.indexOf('\n');
    return newline < 0 ? message.strip() : message.substring(0, newline).strip();
  }
}
