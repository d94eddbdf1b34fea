package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The stream under the record's line files: the first failure is kept, and nothing is written after
 * it, so that a line a full disk cut short stays the file's last (a damaged line in the middle of a
 * file makes the whole record unreadable).
 */
class FailureKeepingStreamTest {
  /** A disk of {@code free} bytes that writes what fits, fails, and may get space back. */
  private static final class Disk extends OutputStream {
    final ByteArrayOutputStream written = new ByteArrayOutputStream();
    int free;

    Disk(int free) {
      this.free = free;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      int fits = Math.min(len, free);
      written.write(b, off, fits);
      free -= fits;
      if (fits < len) {
        throw new IOException("No space left on device");
      }
    }
  }

  @Test
  void aLineCutByAFullDiskStaysTheLastEvenWhenSpaceComesBack() {
    Disk disk = new Disk(15);
    FailureKeepingStream stream = new FailureKeepingStream(disk);
    PrintStream lines = new PrintStream(stream, false, StandardCharsets.US_ASCII);
    lines.print("line 1\nline 2\nline 3\n");
    lines.flush();
    assertThat(stream.failure()).hasMessage("No space left on device");

    disk.free = 1_000; // the run's temporary files deleted
    lines.print("line 4\n");
    lines.flush();
    lines.close();

    assertThat(disk.written.toString(StandardCharsets.US_ASCII)).isEqualTo("line 1\nline 2\nl");
    assertThat(stream.failure()).hasMessage("No space left on device");
  }

  @Test
  void everyWriteAfterTheFailureFailsAndNamesIt() throws IOException {
    Disk disk = new Disk(0);
    FailureKeepingStream stream = new FailureKeepingStream(disk);
    assertThatThrownBy(() -> stream.write(1)).hasMessage("No space left on device");
    disk.free = 10;
    assertThatThrownBy(() -> stream.write(new byte[] {1, 2}, 0, 2))
        .hasMessage("not written after an earlier failure: No space left on device");
    assertThatThrownBy(stream::flush).hasMessageContaining("earlier failure");
    assertThat(disk.written.size()).isZero();
  }
}
