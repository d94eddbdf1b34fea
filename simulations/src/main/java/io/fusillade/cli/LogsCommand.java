package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade logs generate}: writes the documents of a log profile as NDJSON, the same
 * documents the logs protocol sends for the same seed, to feed other shippers.
 */
@Command(
    name = "logs",
    description = "Log data sets for Elasticsearch-compatible stores.",
    mixinStandardHelpOptions = true,
    subcommands = {LogsCommand.Generate.class})
public final class LogsCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return FusilladeCommand.USER_ERROR;
  }

  /** {@code fusillade logs generate --profile web|k8s --docs N --seed S [--file FILE|-]}. */
  @Command(
      name = "generate",
      description =
          "Write N documents of a profile as NDJSON: one document per line, or a _bulk body"
              + " with --bulk.",
      mixinStandardHelpOptions = true)
  public static final class Generate implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--profile", defaultValue = "web", description = "web or k8s (default web).")
    String profile;

    @Option(names = "--docs", required = true, description = "How many documents.")
    long docs;

    @Option(names = "--seed", defaultValue = "1", description = "The data set's seed (default 1).")
    long seed;

    @Option(
        names = "--first",
        defaultValue = "0",
        description = "The index of the first document (default 0).")
    long first;

    @Option(
        names = "--bulk",
        description = "Write a _bulk body: an {\"index\":{}} action line before each document.")
    boolean bulk;

    @Option(
        names = {"-f", "--file"},
        defaultValue = "-",
        description =
            "The file to write, or - for standard output (default). (--output is a directory"
                + " everywhere: where a command's records or reports go.)")
    String output;

    @Override
    public Integer call() throws IOException {
      LogSource source =
          LogProfile.parse(profile)
              .orElseThrow(
                  () -> new FusilladeException("--profile must be web or k8s, got " + profile))
              .source(seed);
      if (docs < 0 || first < 0) {
        throw new FusilladeException("--docs and --first must be >= 0");
      }
      OutputStream target;
      if (output.equals("-")) {
        spec.commandLine().getOut().flush();
        target = new BufferedOutputStream(System.out, 1 << 16);
      } else {
        try {
          target = new BufferedOutputStream(Files.newOutputStream(Path.of(output)), 1 << 16);
        } catch (IOException e) {
          throw new FusilladeException(
              "cannot write " + output + ": " + e.getClass().getSimpleName());
        }
      }
      JsonBuffer buffer = new JsonBuffer(1 << 20);
      try {
        for (long i = first; i < first + docs; ) {
          int n = (int) Math.min(10_000, first + docs - i);
          buffer.reset();
          if (bulk) {
            BulkBodies.append(source, i, n, buffer);
          } else {
            for (int k = 0; k < n; k++) {
              source.write(i + k, buffer);
              buffer.raw((byte) '\n');
            }
          }
          buffer.writeTo(target);
          i += n;
        }
      } finally {
        target.flush();
        if (!output.equals("-")) {
          target.close();
        }
      }
      return 0;
    }
  }
}
