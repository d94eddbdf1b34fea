package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.logs.NdjsonFiles;
import io.fusillade.workload.LogsNames;
import picocli.CommandLine.Option;

/**
 * What a logs workload ingests, the kind of store it runs on and the embedded one it starts: logs
 * workloads only.
 */
final class LogsOptions extends OptionGroup {
  @Option(
      names = "--files",
      paramLabel = "GLOB",
      description =
          "Replay NDJSON documents from disk instead of the generated ones: a file, a directory or"
              + " a glob such as 'data/*.ndjson.gz' (gzip read as such).")
  String files;

  @Option(
      names = "--nodes",
      paramLabel = "N",
      description =
          "Start the embedded OpenSearch as a cluster of N nodes (1 to 5, default 1); with 3, the"
              + " index's replica (replicas: 1) makes it green, and faults may kill opensearch"
              + " 1..N. With --target seq-db: an ingestor in front of N stores (faults: seq-db 1"
              + " is the ingestor, 2..N+1 the stores).")
  Integer nodes;

  @Option(
      names = "--target",
      paramLabel = "STORE",
      description =
          "The kind of store, replacing the section's target: opensearch (the default),"
              + " elasticsearch or seq-db. Without --url or urls, the embedded one of that kind is"
              + " started (seq-db: from --seqdb-binary; faults name its processes seq-db 1..N).")
  String target;

  @Option(
      names = "--seqdb-binary",
      paramLabel = "PATH",
      description =
          "The seq-db binary of an embedded seq-db (default: $FUSILLADE_SEQDB, seq-db on the"
              + " PATH, or where ../shared/seq-db/build.sh puts it).")
  String seqdbBinary;

  /** Checks each value, naming the option: before anything starts. */
  void validate() {
    if (nodes != null && (nodes < 1 || nodes > 5)) {
      throw new FusilladeException("--nodes must be 1 to 5, got " + nodes);
    }
    if (target != null && LogsNames.target(target).isEmpty()) {
      throw new FusilladeException(
          "--target must be one of "
              + String.join(", ", LogsNames.TARGETS)
              + ", not \""
              + target
              + "\"");
    }
    if (files != null && NdjsonFiles.files(files).isEmpty()) {
      // Before the fork: the files are read there, once (a bad line is named by its file and line).
      throw new FusilladeException(
          "--files: '"
              + files
              + "' names no file (a file, a directory or a glob such as data/*.ndjson.gz)");
    }
  }

  /**
   * Refuses {@code --nodes} when the log store is given.
   *
   * @param external whether a log store is given ({@code --url} or the section's urls)
   */
  void checkTarget(boolean external) {
    if (nodes != null && external) {
      throw new FusilladeException(
          "--nodes starts the embedded OpenSearch; a cluster given by --url or the workload's urls"
              + " is yours");
    }
  }
}
