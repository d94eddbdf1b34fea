package io.fusillade.record;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Writes a file whole or not at all: into {@code NAME.tmp} beside it, then renamed over it. A write
 * that fails (a full disk) leaves the file as it was (or absent) and no {@code .tmp}: never a
 * half-written {@code run.json} or a 0-byte {@code index.html} that a reader would take for the
 * real one.
 */
public final class AtomicFile {
  private AtomicFile() {}

  /**
   * Writes {@code content} to {@code target}.
   *
   * @throws IOException when it cannot, with the file as it was
   */
  public static void write(Path target, byte[] content) throws IOException {
    Path temp = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      Files.write(temp, content);
      try {
        Files.move(
            temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(temp);
      } catch (IOException ignored) {
        // the reason that matters is the write's
      }
      throw e;
    }
  }

  /** As {@link #write(Path, byte[])}, text in UTF-8. */
  public static void write(Path target, String text) throws IOException {
    write(target, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /**
   * The one line a failed write says: {@code no space left on device (/runs/r1/run.json)} for a
   * full disk, else {@code cannot write PATH: REASON}.
   *
   * @param file the file that could not be written
   * @param cause why
   */
  public static String failure(Path file, IOException cause) {
    String reason = RecordWriteException.reason(cause);
    if (reason.equalsIgnoreCase("No space left on device")) {
      return "no space left on device (" + file + ")";
    }
    return "cannot write " + file + ": " + reason;
  }
}
