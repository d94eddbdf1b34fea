package io.fusillade.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the libraries' warnings and errors go (Kafka's client, HikariCP, the embedded PostgreSQL,
 * Gatling, Netty...): to the run's log file, whole, stack traces included; the console gets the
 * first one in one line, with where the rest are, and their count when the JVM ends. A normal run
 * with faults (a replica killed, a broker lost) makes them by the dozen, and their stack traces
 * told the user nothing the run's results and events do not say better. Fusillade's own messages
 * stay on the console ({@link OwnLogsOnly} keeps the libraries' off it).
 *
 * <p>The log file is {@value #FILE} in the run record's directory: until the record opens, in the
 * runs directory ({@code fusillade-PID.log} under the run plan's, or {@value
 * RunOptions#BASE_DIRECTORY_PROPERTY}), moved into the record when it opens, so that a run that
 * failed before its record keeps them too. A JVM without a runs directory (the {@code fusillade}
 * command itself) has no file: each message is one line on the console, without its stack trace. A
 * log file that cannot be written (a full disk) is given up silently; the messages are still
 * counted.
 */
public final class LibraryLog extends AppenderBase<ILoggingEvent> {
  /** The log file's name in the run record's directory. */
  public static final String FILE = "fusillade.log";

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

  private final PrintStream console = System.out;
  private final Map<String, Integer> byLibrary = new TreeMap<>(); // guarded by this
  private int count; // guarded by this
  private Path file; // guarded by this: where the messages go now, or null
  private Writer writer; // guarded by this, or null
  private boolean broken; // guarded by this: the file could not be written
  private boolean inRecord; // guarded by this: the file is the record's

  @Override
  protected synchronized void append(ILoggingEvent event) {
    count++;
    byLibrary.merge(library(event.getLoggerName()), 1, Integer::sum);
    String line = oneLine(event);
    Path where = write(event, line);
    if (count == 1) {
      console.println(
          line
              + (where == null
                  ? ""
                  : broken
                      ? " (libraries' messages go to " + where + ", which cannot be written)"
                      : " (libraries' messages, with their stack traces, go to " + where + ")"));
      try {
        Runtime.getRuntime()
            .addShutdownHook(new Thread(this::sayCount, "fusillade-library-log-count"));
      } catch (IllegalStateException exiting) {
        // the JVM is ending already: this one message is all there is to say
      }
    } else if (where == null) {
      console.println(line);
    }
  }

  /** {@code 12:00:01.234 WARN com.zaxxer.hikari.pool.PoolBase - the message's first line}. */
  static String oneLine(ILoggingEvent event) {
    String message = event.getFormattedMessage();
    message = message == null ? "" : message;
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null && message.isBlank()) {
      message = thrown.getClassName() + ": " + thrown.getMessage();
    }
    return TIME.format(Instant.ofEpochMilli(event.getTimeStamp()))
        + " "
        + String.format("%-5s", event.getLevel())
        + " "
        + event.getLoggerName()
        + " - "
        + message.strip();
  }

  /** Writes the event whole; returns the file, or null when there is none. */
  private Path write(ILoggingEvent event, String line) {
    Path target = target();
    if (target == null || broken) {
      return broken ? file : null;
    }
    try {
      if (writer == null) {
        Files.createDirectories(target.getParent());
        writer =
            Files.newBufferedWriter(
                target,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
        file = target;
        if (!inRecord) {
          followTheRecord();
        }
      }
      writer.write(line);
      writer.write(System.lineSeparator());
      String message = event.getFormattedMessage();
      if (message != null && message.indexOf('\n') >= 0) {
        writer.write(message.substring(message.indexOf('\n') + 1));
        writer.write(System.lineSeparator());
      }
      if (event.getThrowableProxy() != null) {
        writer.write(ThrowableProxyUtil.asString(event.getThrowableProxy()));
        writer.write(System.lineSeparator());
      }
      writer.flush();
    } catch (IOException e) {
      broken = true; // a full disk: the count goes on, the file is given up
      giveUp();
    }
    return file;
  }

  /** Closes the file that cannot be written, and removes it if nothing could be. */
  private void giveUp() {
    try {
      if (writer != null) {
        writer.close();
      }
    } catch (IOException ignored) {
      // as broken as it was
    }
    writer = null;
    try {
      if (file != null && Files.size(file) == 0) {
        Files.delete(file);
      }
    } catch (IOException ignored) {
      // nothing more to do on a full disk
    }
  }

  /**
   * Where messages go now: the record's file once the record is open (the earlier file moved
   * there), else the runs directory's, else none.
   */
  private Path target() {
    if (inRecord) {
      return file;
    }
    var record = RunRecorder.lastOpenedDirectory();
    if (record.isPresent()) {
      Path inside = record.get().resolve(FILE);
      inRecord = true;
      try {
        if (writer != null) {
          writer.close();
          writer = null;
          Files.move(file, inside, StandardCopyOption.REPLACE_EXISTING);
        }
      } catch (IOException e) {
        broken = true;
        giveUp();
      }
      file = inside;
      return inside;
    }
    Path runs = runsDirectory();
    if (runs == null) {
      return null;
    }
    return runs.resolve("fusillade-" + ProcessHandle.current().pid() + ".log");
  }

  /** The runs directory: the run plan's (a forked run), else the documented property's, or null. */
  private static Path runsDirectory() {
    if (RunPlan.installed() && RunPlan.current().outputs().runsDirectory() != null) {
      return RunPlan.current().outputs().runsDirectory();
    }
    String runs = System.getProperty(RunOptions.BASE_DIRECTORY_PROPERTY);
    return runs == null ? null : Path.of(runs);
  }

  /**
   * Moves the runs directory's file into the record as soon as it opens, whether or not another
   * message comes: a daemon thread looks every 100 ms.
   */
  private void followTheRecord() {
    Thread follower =
        new Thread(
            () -> {
              while (RunRecorder.lastOpenedDirectory().isEmpty()) {
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                }
              }
              synchronized (this) {
                target();
              }
            },
            "fusillade-library-log");
    follower.setDaemon(true);
    follower.start();
  }

  /** At the JVM's end: how many there were, when more than the one shown. */
  private synchronized void sayCount() {
    if (count > 1) {
      console.println(
          "Fusillade: "
              + count
              + " warnings and errors from libraries ("
              + String.join(
                  ", ",
                  byLibrary.entrySet().stream().map(e -> e.getKey() + " " + e.getValue()).toList())
              + ")"
              + (file == null
                  ? ""
                  : broken ? " (" + file + " could not be written)" : " in " + file));
      console.flush();
    }
    try {
      if (writer != null) {
        writer.close();
      }
    } catch (IOException e) {
      // the JVM ends
    }
  }

  /** The library a logger belongs to: its first two name parts ({@code org.apache}...). */
  static String library(String logger) {
    if (logger.startsWith("org.apache.kafka")) {
      return "Kafka client";
    }
    if (logger.startsWith("com.zaxxer.hikari")) {
      return "HikariCP";
    }
    if (logger.startsWith("io.zonky")) {
      return "embedded PostgreSQL";
    }
    if (logger.startsWith("io.gatling")) {
      return "Gatling";
    }
    if (logger.startsWith("io.netty")) {
      return "Netty";
    }
    String[] parts = logger.split("\\.");
    return parts.length >= 2 ? parts[0] + "." + parts[1] : logger;
  }

  /** Whether a logger is Fusillade's own. */
  static boolean own(String logger) {
    return logger.startsWith("io.fusillade");
  }

  /** Keeps the libraries' messages off an appender (the console's): {@link LibraryLog} has them. */
  public static final class OwnLogsOnly extends Filter<ILoggingEvent> {
    @Override
    public FilterReply decide(ILoggingEvent event) {
      return own(event.getLoggerName()) ? FilterReply.NEUTRAL : FilterReply.DENY;
    }
  }

  /** Lets only the libraries' messages through to {@link LibraryLog}. */
  public static final class LibrariesOnly extends Filter<ILoggingEvent> {
    @Override
    public FilterReply decide(ILoggingEvent event) {
      return own(event.getLoggerName()) ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
  }
}
