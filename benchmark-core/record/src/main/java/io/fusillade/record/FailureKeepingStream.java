package io.fusillade.record;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Keeps the first error of the stream under a {@link java.io.PrintStream}: HdrHistogram's log
 * writer prints through one, and a {@code PrintStream} swallows every {@link IOException} (its
 * {@code checkError()} says only that something failed). Without this, a full disk would silently
 * stop the latencies from being recorded.
 */
final class FailureKeepingStream extends FilterOutputStream {
  private IOException failure;

  FailureKeepingStream(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw keep(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw keep(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw keep(e);
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
