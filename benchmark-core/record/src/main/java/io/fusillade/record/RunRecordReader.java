package io.fusillade.record;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.FusilladeException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Reads a run directory back, including the record of a run that was killed: unfinished last lines
 * are skipped and counted, and a manifest that still says "running" for a process that is gone
 * reads as {@link RunStatus#INCOMPLETE}.
 */
public final class RunRecordReader {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  /** A record untouched for this long, whose process we cannot see, is not running any more. */
  private static final long STALE_AFTER_MS = 5_000;

  /** The reason given to a record read as {@link RunStatus#INCOMPLETE}. */
  public static final String INCOMPLETE_REASON =
      "the process ended before the run closed (killed or lost)";

  private RunRecordReader() {}

  /**
   * Reads the run record in {@code directory}.
   *
   * @throws FusilladeException when the directory holds no readable run record
   */
  public static RunRecord read(Path directory) {
    return read(directory, null);
  }

  /**
   * Receives every interval of {@code latency.hlog} while a record is read, so that per-second
   * views (latency percentiles over time) need no second pass over the file.
   */
  @FunctionalInterface
  public interface IntervalListener {
    /**
     * One decoded interval.
     *
     * @param tag the interval's tag ({@code req/OK/by%20id}: see {@link Tags#parse})
     * @param startSeconds the interval's start, in seconds since the start of the run
     * @param lengthSeconds the interval's length in seconds
     * @param histogram its latencies in microseconds; the listener may keep it
     */
    void interval(String tag, double startSeconds, double lengthSeconds, Histogram histogram);
  }

  /**
   * Reads the run record in {@code directory}, handing every histogram interval to {@code listener}
   * as it is decoded (each line is decoded once).
   *
   * @param listener receives the intervals in file order; null for none
   * @throws FusilladeException when the directory holds no readable run record
   */
  public static RunRecord read(Path directory, IntervalListener listener) {
    Path manifestFile = directory.resolve(RunFiles.MANIFEST);
    if (!Files.isRegularFile(manifestFile)) {
      throw new FusilladeException(
          "no run record in " + directory + ": " + RunFiles.MANIFEST + " is missing");
    }
    JsonNode manifestJson;
    try {
      manifestJson = JSON.readTree(manifestFile.toFile());
    } catch (JsonProcessingException e) {
      throw new FusilladeException(
          manifestFile
              + ":"
              + e.getLocation().getLineNr()
              + ": not valid JSON: "
              + e.getOriginalMessage());
    } catch (IOException e) {
      throw new FusilladeException("cannot read " + manifestFile + ": " + e.getMessage(), e);
    }
    int[] truncated = {0};
    Map<String, Histogram[]> byTag =
        readHistograms(directory.resolve(RunFiles.HISTOGRAMS), truncated, listener);
    List<SecondCounts> seconds = readSeconds(directory.resolve(RunFiles.COUNTERS), truncated);
    List<RunEvent> events = readEvents(directory.resolve(RunFiles.EVENTS), truncated);

    RunManifest manifest = manifest(manifestFile, manifestJson, directory);
    long end =
        manifest.endEpochMs() != null
            ? manifest.endEpochMs()
            : seconds.isEmpty()
                ? manifest.startEpochMs()
                : seconds.get(seconds.size() - 1).epochMs();
    return new RunRecord(
        directory,
        manifest,
        end,
        requestTotals(byTag, seconds),
        metricTotals(byTag),
        Collections.unmodifiableList(seconds),
        truncated[0],
        events);
  }

  /**
   * The events of {@value RunFiles#EVENTS}, sorted by time; none when the file is absent. A line
   * that is not a complete event (the unfinished last line of a killed run) is skipped and counted.
   */
  private static List<RunEvent> readEvents(Path file, int[] truncated) {
    if (!Files.isRegularFile(file)) {
      return List.of();
    }
    List<RunEvent> events = new ArrayList<>();
    try (BufferedReader lines = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        if (line.isBlank()) {
          continue;
        }
        try {
          JsonNode event = JSON.readTree(line);
          if (!event.path("epochMs").canConvertToLong()
              || !event.path("kind").isTextual()
              || !event.path("target").isTextual()) {
            truncated[0]++;
            continue;
          }
          events.add(
              new RunEvent(
                  event.get("epochMs").asLong(),
                  event.get("kind").asText(),
                  event.get("target").asText(),
                  event.path("detail").asText("")));
        } catch (JsonProcessingException unfinished) {
          truncated[0]++;
        }
      }
    } catch (IOException e) {
      throw new FusilladeException("cannot read " + file + ": " + e.getMessage(), e);
    }
    events.sort(java.util.Comparator.comparingLong(RunEvent::epochMs));
    return List.copyOf(events);
  }

  private static RunManifest manifest(Path file, JsonNode json, Path directory) {
    JsonNode status = json.path("status");
    JsonNode start = json.path("startEpochMs");
    if (!status.isTextual() || !start.canConvertToLong()) {
      throw new FusilladeException(
          file + ": not a Fusillade run record (no status or startEpochMs)");
    }
    RunStatus written;
    try {
      written = RunStatus.fromJson(status.asText());
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(file + ": unknown status \"" + status.asText() + "\"");
    }
    Map<String, Object> injector = asMap(json.path("injector"));
    boolean lost = written == RunStatus.RUNNING && !stillRunning(injector, directory);
    RunStatus verdict = lost ? RunStatus.INCOMPLETE : written;
    String reason =
        lost
            ? INCOMPLETE_REASON
            : json.hasNonNull("statusReason") ? json.get("statusReason").asText() : null;
    List<String> flags = new ArrayList<>();
    json.path("flags").forEach(flag -> flags.add(flag.asText()));
    List<String> checks = new ArrayList<>();
    json.path("checks").forEach(check -> checks.add(check.asText()));
    return new RunManifest(
        json.path("format").asInt(RunFiles.FORMAT_VERSION),
        json.path("runId").asText(directory.getFileName().toString()),
        json.path("simulation").asText(""),
        verdict,
        start.asLong(),
        json.hasNonNull("endEpochMs") ? json.get("endEpochMs").asLong() : null,
        asMap(json.path("parameters")),
        injector,
        asMap(json.path("health")),
        List.copyOf(flags),
        List.copyOf(checks),
        reason);
  }

  private static boolean stillRunning(Map<String, Object> injector, Path directory) {
    Object pid = injector.get("pid");
    Object host = injector.get("host");
    boolean sameHost = InjectorInfo.hostName().equals(host);
    if (sameHost && pid instanceof Number number) {
      Optional<ProcessHandle> process = ProcessHandle.of(number.longValue());
      if (process.isEmpty() || !process.get().isAlive()) {
        return false;
      }
    }
    try {
      long lastWrite = Files.getLastModifiedTime(directory.resolve(RunFiles.COUNTERS)).toMillis();
      return System.currentTimeMillis() - lastWrite < STALE_AFTER_MS;
    } catch (IOException e) {
      return false;
    }
  }

  private static Map<String, Object> asMap(JsonNode node) {
    if (!node.isObject()) {
      return Map.of();
    }
    return Collections.unmodifiableMap(JSON.convertValue(node, MAP));
  }

  /** Per tag, the whole-run histogram (index 0). */
  private static Map<String, Histogram[]> readHistograms(
      Path file, int[] truncated, IntervalListener listener) {
    Map<String, Histogram[]> byTag = new LinkedHashMap<>();
    if (!Files.isRegularFile(file)) {
      return byTag;
    }
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
      String line;
      int number = 0;
      int cut = 0; // the line that could not be decoded, 0 when none
      while ((line = reader.readLine()) != null) {
        number++;
        if (line.isEmpty() || line.startsWith("#") || line.startsWith("\"")) {
          continue;
        }
        // A kill cuts the last line short; a bad line with lines after it is a damaged file.
        if (cut > 0) {
          throw new FusilladeException(
              file + ":" + cut + ": not a histogram log line: the file is damaged");
        }
        String tag = null;
        String rest = line;
        if (line.startsWith("Tag=")) {
          int comma = line.indexOf(',');
          if (comma < 0) {
            truncated[0]++;
            cut = number;
            continue;
          }
          tag = line.substring(4, comma);
          rest = line.substring(comma + 1);
        }
        String[] fields = rest.split(",");
        if (fields.length != 4) {
          truncated[0]++;
          cut = number;
          continue;
        }
        Histogram interval;
        try {
          byte[] bytes = Base64.getDecoder().decode(fields[3]);
          interval = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(bytes), 0);
        } catch (IllegalArgumentException | DataFormatException | IndexOutOfBoundsException e) {
          truncated[0]++; // a line cut short by a kill
          cut = number;
          continue;
        }
        Histogram[] total =
            byTag.computeIfAbsent(
                tag == null ? "" : tag, t -> new Histogram[] {Latencies.newHistogram()});
        total[0].add(interval);
        if (listener != null) {
          double start;
          double length;
          try {
            start = Double.parseDouble(fields[0]);
            length = Double.parseDouble(fields[1]);
          } catch (NumberFormatException e) {
            continue;
          }
          listener.interval(tag == null ? "" : tag, start, length, interval);
        }
      }
    } catch (IOException e) {
      throw new FusilladeException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return byTag;
  }

  private static List<SecondCounts> readSeconds(Path file, int[] truncated) {
    List<SecondCounts> seconds = new ArrayList<>();
    if (!Files.isRegularFile(file)) {
      return seconds;
    }
    try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = JSON.readTree(line);
        } catch (JsonProcessingException e) {
          truncated[0]++;
          continue;
        }
        seconds.add(second(node));
      }
    } catch (IOException e) {
      throw new FusilladeException("cannot read " + file + ": " + e.getMessage(), e);
    }
    return seconds;
  }

  private static SecondCounts second(JsonNode node) {
    Map<String, SecondCounts.RequestSecond> requests = new LinkedHashMap<>();
    node.path("requests")
        .fields()
        .forEachRemaining(
            e -> {
              JsonNode r = e.getValue();
              requests.put(
                  e.getKey(),
                  new SecondCounts.RequestSecond(
                      r.path("sent").asLong(),
                      r.path("ok").asLong(),
                      r.path("ko").asLong(),
                      r.path("bytes").asLong(),
                      longs(r.path("errors"))));
            });
    Map<String, Double> gauges = new LinkedHashMap<>();
    node.path("gauges")
        .fields()
        .forEachRemaining(e -> gauges.put(e.getKey(), e.getValue().asDouble()));
    return new SecondCounts(
        node.path("t").asLong(),
        node.path("elapsed").asDouble(),
        requests,
        longs(node.path("counters")),
        gauges);
  }

  private static Map<String, Long> longs(JsonNode node) {
    if (!node.isObject()) {
      return Map.of();
    }
    Map<String, Long> values = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asLong()));
    return values;
  }

  private static Map<String, RequestTotals> requestTotals(
      Map<String, Histogram[]> byTag, List<SecondCounts> seconds) {
    Map<String, Histogram> ok = new HashMap<>();
    Map<String, Histogram> ko = new HashMap<>();
    byTag.forEach(
        (tag, total) ->
            Tags.parse(tag)
                .filter(Tags.Parsed::isRequest)
                .ifPresent(p -> (p.status() == Status.OK ? ok : ko).put(p.name(), total[0])));
    Map<String, long[]> sentAndBytes = new HashMap<>();
    Map<String, Map<String, Long>> errors = new HashMap<>();
    for (SecondCounts second : seconds) {
      second
          .requests()
          .forEach(
              (name, r) -> {
                long[] sums = sentAndBytes.computeIfAbsent(name, n -> new long[2]);
                sums[0] += r.sent();
                sums[1] += r.bytes();
                r.errors()
                    .forEach(
                        (reason, count) ->
                            errors
                                .computeIfAbsent(name, n -> new TreeMap<>())
                                .merge(reason, count, Long::sum));
              });
    }
    TreeMap<String, RequestTotals> totals = new TreeMap<>();
    java.util.Set<String> names = new java.util.TreeSet<>(ok.keySet());
    names.addAll(ko.keySet());
    names.addAll(sentAndBytes.keySet());
    for (String name : names) {
      long[] sums = sentAndBytes.getOrDefault(name, new long[2]);
      totals.put(
          name,
          new RequestTotals(
              name,
              ok.getOrDefault(name, Latencies.newHistogram()),
              ko.getOrDefault(name, Latencies.newHistogram()),
              sums[0],
              sums[1],
              Map.copyOf(errors.getOrDefault(name, Map.of()))));
    }
    return Collections.unmodifiableMap(totals);
  }

  private static Map<String, Histogram> metricTotals(Map<String, Histogram[]> byTag) {
    Map<String, Histogram> metrics = new TreeMap<>();
    byTag.forEach(
        (tag, total) ->
            Tags.parse(tag)
                .filter(p -> !p.isRequest())
                .ifPresent(p -> metrics.put(p.name(), total[0])));
    return Collections.unmodifiableMap(metrics);
  }
}
