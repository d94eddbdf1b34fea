package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads what the {@code logs} section ingests: exactly one of {@code docs}, {@code rate}, {@code
 * steps} and {@code stages} (read by {@link LoadParser#stages}, as {@code load.stages}), with the
 * keys that go with it; and the durations of the logs section, for {@link LogsParser}'s searches
 * too.
 */
final class LogIngestParser extends FieldReader {

  /** Whole seconds, or a number with a unit: {@code 30}, {@code 500ms}, {@code 2m}, {@code 1h}. */
  private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})\\s*(ms|s|m|h)?");

  LogIngestParser(FieldReader shared) {
    super(shared);
  }

  /** Exactly one of docs, rate, steps and stages, with the keys that go with it. */
  LogIngest ingest(MapNode m, String path, long bulkSize) {
    List<String> given =
        Stream.of("docs", "rate", "steps", "stages").filter(k -> field(m, k) != null).toList();
    if (given.isEmpty()) {
      problems.add(
          new Problem(
              m.location(),
              path,
              "nothing to ingest: give docs (an exact count), rate (bulks/s) or steps (a list of"
                  + " rates)"));
      return null;
    }
    if (given.size() > 1) {
      String second = given.get(1);
      problem(
          field(m, second),
          join(path, second),
          // The message without stages is the one of files written before stages existed.
          (second.equals("stages")
                  ? "give one of docs, rate, steps or stages, not "
                  : "give one of docs, rate or steps, not ")
              + given.get(0)
              + " and "
              + second);
      return null;
    }
    String mode = given.get(0);
    misplaced(m, path, "duration", !mode.equals("rate"), "duration goes with rate");
    misplaced(m, path, "step_duration", !mode.equals("steps"), "step_duration goes with steps");
    misplaced(
        m,
        path,
        "concurrency",
        !mode.equals("docs"),
        "concurrency goes with docs: at a rate, each arrival sends one bulk");
    switch (mode) {
      case "docs" -> {
        Long docs = bounded(m, path, "docs", 1, Long.MAX_VALUE);
        if (docs == null) {
          return null;
        }
        if (docs % bulkSize != 0) {
          problem(
              field(m, "docs"),
              join(path, "docs"),
              "docs " + docs + " is not a multiple of bulk_size " + bulkSize);
          return null;
        }
        return LogIngest.docs(docs);
      }
      case "rate" -> {
        Double rate = positiveNumber(field(m, "rate"), join(path, "rate"), "rate");
        Duration duration = duration(m, path, "duration");
        if (rate == null || field(m, "duration") != null && duration == null) {
          return null;
        }
        return LogIngest.rate(rate, duration != null ? duration : LogIngest.DEFAULT_DURATION);
      }
      case "stages" -> {
        List<Stage> stages = new LoadParser(this).stages(m, path);
        return stages.isEmpty() ? null : LogIngest.stages(stages);
      }
      default -> {
        List<YamlNode> items = list(m, path, "steps");
        if (items.isEmpty() && field(m, "steps") instanceof ListNode) {
          problem(field(m, "steps"), join(path, "steps"), "steps needs at least one rate");
          return null;
        }
        List<Double> rates = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
          Double rate =
              positiveNumber(items.get(i), join(path, "steps") + "[" + i + "]", "a step's rate");
          if (rate != null) {
            rates.add(rate);
          }
        }
        Duration step = duration(m, path, "step_duration");
        if (rates.size() != items.size()
            || items.isEmpty()
            || field(m, "step_duration") != null && step == null) {
          return null;
        }
        return LogIngest.steps(rates, step != null ? step : LogIngest.DEFAULT_STEP_DURATION);
      }
    }
  }

  private void misplaced(MapNode m, String path, String key, boolean wrong, String why) {
    if (wrong && field(m, key) != null) {
      problem(field(m, key), join(path, key), why);
    }
  }

  private Double positiveNumber(YamlNode node, String path, String what) {
    Double value = numberOf(node, path);
    if (value == null) {
      return null;
    }
    if (!(value > 0) || value.isInfinite()) {
      problem(node, path, what + " must be > 0 bulks/s, got " + text(node));
      return null;
    }
    return value;
  }

  /**
   * A duration: whole seconds ({@code 30}) or {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}.
   */
  Duration duration(MapNode m, String path, String key) {
    return duration(m, path, key, false);
  }

  /** A moment from a start, as {@link #duration} but 0 too ({@code from: 0s}). */
  Duration offset(MapNode m, String path, String key) {
    return duration(m, path, key, true);
  }

  private Duration duration(MapNode m, String path, String key, boolean zero) {
    YamlNode node = field(m, key);
    if (node == null) {
      return null;
    }
    String p = join(path, key);
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_STRING)) {
      Matcher match = DURATION.matcher(s.text().strip().toLowerCase(Locale.ROOT));
      if (match.matches()) {
        long amount = Long.parseLong(match.group(1));
        Duration d = durationOf(amount, match.group(2) == null ? "s" : match.group(2));
        if (d.isZero() && !zero) {
          problem(node, p, key + " must be > 0, got " + s.text());
          return null;
        }
        return d;
      }
    }
    problem(node, p, "expected a duration such as 30s, 500ms, 2m or 1h, got " + node.describe());
    return null;
  }
}
