package io.fusillade.record;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Keeps the first error of the stream under a {@link java.io.PrintStream}: HdrHistogram's log
 * writer prints through one, and a {@code PrintStream} swallows every {@link IOException} (its
 * {@code checkError()} says only that something failed). Without this, a full disk would silently
 * stop the latencies from being recorded.
 *
 * <p>After its first failure it writes nothing more: a write that a full disk cut short leaves a
 * torn line, which readers accept as a file's last line only (a killed run's). Bytes written after
 * it, once space came back (the run's temporary files deleted, its buffers flushed at close), would
 * make it a damaged line in the middle of the file and the record unreadable.
 */
final class FailureKeepingStream extends FilterOutputStream {
  private IOException failure;

  FailureKeepingStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    refuseAfterFailure();
    try {
      out.write(b);
    } catch (IOException e) {
      throw keep(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    refuseAfterFailure();
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw keep(e);
    }
  }

  @Override
  public void flush() throws IOException {
    refuseAfterFailure();
    try {
      out.flush();
    } catch (IOException e) {
      throw keep(e);
    }
  }

  private void refuseAfterFailure() throws IOException {
    if (failure != null) {
      throw new IOException("not written after an earlier failure: " + failure.getMessage());
    }
  }

  private IOException keep(IOException e) {
    if (failure == null) {
      failure = e;
    }
    return e;
  }

  /** The first write or flush that failed, or null. */
  IOException failure() {
    return failure;
  }
}
