package io.fusillade.logs;

import io.fusillade.FusilladeException;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPInputStream;

/**
 * Documents replayed from NDJSON files on disk (the log-store team's pre-transformed data): a file,
 * a directory (its {@code .ndjson}, {@code .json}, {@code .jsonl} files, gzipped or not, in name
 * order) or a glob such as {@code data/*.ndjson.gz}. Each non-blank line is one document, sent as
 * it is. Document {@code i} is line {@code i} modulo the number of lines, so a run of more
 * documents than the files hold starts over, and any thread can build any bulk ({@link LogSource}).
 *
 * <p>On {@link #open}, the files are read once (gzip decompressed) into one spill file beside the
 * system's temporary files, with the offset of every line: 8 bytes of memory per document, the
 * documents themselves on disk. {@link #close()} deletes it.
 */
public final class NdjsonFiles implements LogSource, AutoCloseable {
  private final String name;
  private final Path spill;
  private final FileChannel channel;
  private final long[] offsets; // offsets[i]..offsets[i + 1] is line i, without its newline
  private final int lines;

  private NdjsonFiles(String name, Path spill, FileChannel channel, long[] offsets, int lines) {
    this.name = name;
    this.spill = spill;
    this.channel = channel;
    this.offsets = offsets;
    this.lines = lines;
  }

  /**
   * Reads the files {@code pattern} names.
   *
   * @throws FusilladeException naming the pattern when it matches no file, or the file and line
   *     when a line is not a JSON object
   */
  public static NdjsonFiles open(String pattern) {
    List<Path> files = files(pattern);
    if (files.isEmpty()) {
      throw new FusilladeException(
          "logs files: '"
              + pattern
              + "' names no file (a file, a directory or a glob such as"
              + " data/*.ndjson.gz)");
    }
    Path spill;
    try {
      spill = Files.createTempFile("fusillade-replay-", ".ndjson");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long[] offsets = new long[1024];
    int count = 0;
    long position = 0;
    try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(spill), 1 << 16)) {
      for (Path file : files) {
        try (InputStream in = input(file)) {
          ByteArrayLine line = new ByteArrayLine();
          int lineNumber = 0;
          while (line.read(in)) {
            lineNumber++;
            if (line.blank()) {
              continue;
            }
            if (line.first() != '{') {
              throw new FusilladeException(
                  file + ":" + lineNumber + ": not a JSON object (an NDJSON line starts with {)");
            }
            if (count + 2 > offsets.length) {
              offsets = Arrays.copyOf(offsets, offsets.length * 2);
            }
            offsets[count] = position;
            out.write(line.bytes(), line.start(), line.length());
            position += line.length();
            count++;
            offsets[count] = position;
          }
        }
      }
    } catch (IOException e) {
      deleteQuietly(spill);
      throw new FusilladeException("logs files: cannot read " + pattern + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      deleteQuietly(spill);
      throw e;
    }
    if (count == 0) {
      deleteQuietly(spill);
      throw new FusilladeException("logs files: '" + pattern + "' holds no document");
    }
    try {
      FileChannel channel = FileChannel.open(spill, StandardOpenOption.READ);
      return new NdjsonFiles(
          "files " + pattern, spill, channel, Arrays.copyOf(offsets, count + 1), count);
    } catch (IOException e) {
      deleteQuietly(spill);
      throw new UncheckedIOException(e);
    }
  }

  /** The documents the files hold. */
  public int documents() {
    return lines;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void write(long index, JsonBuffer out) {
    int line = (int) Math.floorMod(index, (long) lines);
    long from = offsets[line];
    int length = (int) (offsets[line + 1] - from);
    byte[] bytes = new byte[length];
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    try {
      while (buffer.hasRemaining()) {
        // positional reads: safe from any thread
        if (channel.read(buffer, from + buffer.position()) < 0) {
          throw new IOException("the replay spill file ended early");
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    out.raw(bytes);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // closing a read-only file: nothing to lose
    }
    deleteQuietly(spill);
  }

  /**
   * The files a pattern names, in name order: the file itself, a directory's {@code .ndjson},
   * {@code .json} and {@code .jsonl} files (or {@code .gz} of them), or a glob's matches.
   */
  public static List<Path> files(String pattern) {
    Path path = Path.of(pattern);
    List<Path> out = new ArrayList<>();
    try {
      if (Files.isRegularFile(path)) {
        out.add(path);
      } else if (Files.isDirectory(path)) {
        try (DirectoryStream<Path> list = Files.newDirectoryStream(path)) {
          for (Path p : list) {
            String n = p.getFileName().toString().replaceFirst("\\.gz$", "");
            if (Files.isRegularFile(p)
                && (n.endsWith(".ndjson") || n.endsWith(".json") || n.endsWith(".jsonl"))) {
              out.add(p);
            }
          }
        }
      } else {
        Path parent = path.getParent() != null ? path.getParent() : Path.of(".");
        if (Files.isDirectory(parent)) {
          PathMatcher glob =
              FileSystems.getDefault().getPathMatcher("glob:" + path.getFileName().toString());
          try (DirectoryStream<Path> list = Files.newDirectoryStream(parent)) {
            for (Path p : list) {
              if (Files.isRegularFile(p) && glob.matches(p.getFileName())) {
                out.add(p);
              }
            }
          }
        }
      }
    } catch (IOException e) {
      throw new FusilladeException("logs files: cannot list " + pattern + ": " + e.getMessage(), e);
    }
    out.sort(null);
    return out;
  }

  private static InputStream input(Path file) throws IOException {
    InputStream raw = Files.newInputStream(file);
    return new BufferedInputStream(
        file.getFileName().toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw,
        1 << 16);
  }

  private static void deleteQuietly(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a temporary file: the system cleans it eventually
    }
  }

  /** One line at a time, without its line end, into a reused growable array. */
  private static final class ByteArrayLine {
    private byte[] bytes = new byte[8192];
    private int length;

    boolean read(InputStream in) throws IOException {
      length = 0;
      int b;
      boolean any = false;
      while ((b = in.read()) >= 0) {
        any = true;
        if (b == '\n') {
          break;
        }
        if (length == bytes.length) {
          bytes = Arrays.copyOf(bytes, bytes.length * 2);
        }
        bytes[length++] = (byte) b;
      }
      if (length > 0 && bytes[length - 1] == '\r') {
        length--;
      }
      return any;
    }

    boolean blank() {
      for (int i = 0; i < length; i++) {
        if (!Character.isWhitespace(bytes[i])) {
          return false;
        }
      }
      return true;
    }

    byte first() {
      for (int i = 0; i < length; i++) {
        if (!Character.isWhitespace(bytes[i])) {
          return bytes[i];
        }
      }
      return 0;
    }

    byte[] bytes() {
      return bytes;
    }

    int start() {
      return 0;
    }

    int length() {
      return length;
    }
  }
}
