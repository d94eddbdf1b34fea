package io.fusillade.record;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Writes {@code run.json} atomically: a reader never sees half a manifest. */
final class ManifestWriter {
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ManifestWriter() {}

  static void write(
      Path directory,
      String runId,
      RunOptions options,
      RunStatus status,
      String statusReason,
      long startEpochMs,
      Long endEpochMs,
      Map<String, Object> health,
      List<String> flags,
      List<String> checks,
      InjectorInfo injector) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", RunFiles.FORMAT_VERSION);
    root.put("runId", runId);
    root.put("simulation", options.simulation());
    root.put("status", status.jsonName());
    if (statusReason != null) {
      root.put("statusReason", statusReason);
    }
    root.put("start", Instant.ofEpochMilli(startEpochMs).toString());
    root.put("startEpochMs", startEpochMs);
    if (endEpochMs != null) {
      root.put("end", Instant.ofEpochMilli(endEpochMs).toString());
      root.put("endEpochMs", endEpochMs);
      root.put("durationSeconds", (endEpochMs - startEpochMs) / 1000.0);
    }
    root.set("parameters", JSON.valueToTree(options.parameters()));
    root.set("injector", JSON.valueToTree(injector));
    root.set("health", JSON.valueToTree(health));
    root.set("flags", JSON.valueToTree(flags));
    if (!checks.isEmpty()) {
      root.set("checks", JSON.valueToTree(checks));
    }
    ObjectNode files = root.putObject("files");
    files.put("histograms", RunFiles.HISTOGRAMS);
    files.put("counters", RunFiles.COUNTERS);
    try {
      AtomicFile.write(directory.resolve(RunFiles.MANIFEST), JSON.writeValueAsBytes(root));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + directory.resolve(RunFiles.MANIFEST), e);
    }
  }
}
