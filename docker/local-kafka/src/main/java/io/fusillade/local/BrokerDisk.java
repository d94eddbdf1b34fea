package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.stream.Stream;

/**
 * The disk of one embedded broker's log directory when the cluster was given a size ({@link
 * LocalKafka.Builder#diskSize(long)}): a tmpfs of that size mounted on it where the machine allows
 * it (root), so that the broker fills a real filesystem and fails as on a full disk; else a quota
 * of that size, which the broker does not see but {@link #usePercent()} reports against.
 *
 * <p>A quota counts the directory's files, Kafka's preallocated indexes ({@code .index}, {@code
 * .timeindex}: sparse files of {@code segment.index.bytes}, trimmed when their segment rolls) left
 * out; a mounted disk is what its filesystem says it holds.
 */
public final class BrokerDisk {
  private final Path directory;
  private final long size;
  private final String refused; // why no tmpfs was mounted, or null when one was

  BrokerDisk(Path directory, long size, String refused) {
    this.directory = directory;
    this.size = size;
    this.refused = refused;
  }

  /**
   * Prepares the disk of {@code directory}: creates it and mounts a tmpfs of {@code size} bytes on
   * it, or falls back to a quota when mounting is refused.
   */
  static BrokerDisk of(Path directory, long size) throws IOException {
    Files.createDirectories(directory);
    return new BrokerDisk(directory, size, Mounts.tmpfs(directory, size));
  }

  /** The broker's log directory. */
  public Path directory() {
    return directory;
  }

  /** The disk's size in bytes. */
  public long size() {
    return size;
  }

  /** Whether a filesystem of {@link #size()} is mounted (else the size is a quota). */
  public boolean mounted() {
    return refused == null;
  }

  /** Why mounting was refused (what {@code mount} said), or null when the disk is mounted. */
  public String refusal() {
    return refused;
  }

  /**
   * The bytes in use now: the filesystem's used space when mounted, else the directory's files.
   *
   * @return the bytes, or -1 when the directory cannot be read (the cluster closed)
   */
  public long used() {
    try {
      if (mounted()) {
        var store = Files.getFileStore(directory);
        return store.getTotalSpace() - store.getUsableSpace();
      }
      return filesBytes(directory);
    } catch (IOException | UncheckedIOException e) {
      return -1;
    }
  }

  /**
   * The share of the disk in use now, in %: 100 when it is full (a quota's files may go beyond it).
   *
   * @return the percentage, or NaN when the directory cannot be read
   */
  public double usePercent() {
    long used = used();
    return used < 0 ? Double.NaN : 100.0 * used / size;
  }

  private static long filesBytes(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(f -> f.getFileName() != null && !f.getFileName().toString().endsWith("index"))
          .mapToLong(BrokerDisk::size)
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      return a.isRegularFile() ? a.size() : 0;
    } catch (IOException vanished) {
      return 0; // a segment retention deleted meanwhile
    }
  }

  @Override
  public String toString() {
    return (mounted() ? "tmpfs of " : "quota of ") + size + " bytes on " + directory;
  }
}
