package io.fusillade.workload;

import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Spike;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the verdict and the load of a workload: the {@code checks} list (kept as text: see {@link
 * CheckText}) and the {@code load} section ({@link Load}), which says how the queries are sent.
 * {@code config_name: QUEUE} (Picostress's name of queue mode) selects queue mode when {@code
 * load.mode} does not say otherwise.
 */
final class LoadParser extends FieldReader {

  private static final Set<String> LOAD_KEYS = keys("mode", "users", "rate", "duration", "spike");
  private static final Set<String> SPIKE_KEYS = keys("peak", "rise", "hold", "fall");
  private static final List<String> MODES = List.of("queue", "rate");

  LoadParser(FieldReader shared) {
    super(shared);
  }

  /**
   * The {@code load} section.
   *
   * @param top the file's mapping
   * @param configName the {@code config_name}, or null
   */
  Load load(MapNode top, String configName) {
    Mode implied = "queue".equals(lower(configName)) ? Mode.QUEUE : null;
    YamlNode node = field(top, "load");
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return implied == null ? Load.NONE : new Load(implied, null, null, null, null);
    }
    for (String other : List.of("logs", "topics")) {
      if (field(top, other) != null) {
        problem(
            node,
            "load",
            "load applies to queries; "
                + (other.equals("logs")
                    ? "a logs section states its ingest in logs (docs, rate or steps)"
                    : "topics state their rate in each topic (rate and duration, or steps)"));
        return Load.NONE;
      }
    }
    MapNode m = asMap(node, "load");
    if (m == null) {
      return Load.NONE;
    }
    checkKeys(m, "load", LOAD_KEYS);
    Mode mode =
        enumField(
            m,
            "load",
            "mode",
            false,
            t -> Optional.ofNullable(MODES.contains(lower(t)) ? Mode.valueOf(upper(t)) : null),
            MODES);
    Mode effective = mode != null ? mode : implied;
    Long users = bounded(m, "load", "users", 1, Integer.MAX_VALUE);
    Double rate = positive(m, "load", "rate", "rate", "arrivals/s");
    Duration duration = new LogIngestParser(this).duration(m, "load", "duration");
    Spike spike = spike(m);
    if (effective == Mode.QUEUE) {
      String why = " (queue mode runs the queue once, with users)";
      goesWith(m, "rate", "mode: rate" + why);
      goesWith(m, "duration", "mode: rate" + why);
      goesWith(m, "spike", "mode: rate" + why);
    } else {
      goesWith(m, "users", "mode: queue (rate mode sends rate arrivals per second)");
    }
    return new Load(effective, users == null ? null : users.intValue(), rate, duration, spike);
  }

  /**
   * The {@code checks} list: one text per check.
   *
   * @param top the file's mapping
   */
  List<CheckText> checks(MapNode top) {
    List<CheckText> checks = new ArrayList<>();
    List<YamlNode> items = list(top, "", "checks");
    for (int i = 0; i < items.size(); i++) {
      String path = "checks[" + i + "]";
      String text = scalarString(items.get(i), path);
      if (text == null) {
        continue;
      }
      if (text.isBlank()) {
        problem(items.get(i), path, "empty check (examples: p99 < 50ms, errors < 1%)");
        continue;
      }
      checks.add(new CheckText(text.strip(), items.get(i).location(), path));
    }
    return checks;
  }

  private Spike spike(MapNode load) {
    YamlNode node = field(load, "spike");
    if (node == null) {
      return null;
    }
    MapNode m = asMap(node, "load.spike");
    if (m == null) {
      return null;
    }
    int before = problems.size();
    checkKeys(m, "load.spike", SPIKE_KEYS);
    if (field(m, "peak") == null) {
      missing(m, "load.spike", "peak");
    }
    Double peak = positive(m, "load.spike", "peak", "a spike's peak", "arrivals/s");
    LogIngestParser durations = new LogIngestParser(this);
    Duration rise = durations.duration(m, "load.spike", "rise");
    Duration hold = durations.duration(m, "load.spike", "hold");
    Duration fall = durations.duration(m, "load.spike", "fall");
    return problems.size() > before || peak == null ? null : new Spike(peak, rise, hold, fall);
  }

  /** An optional number above zero. */
  private Double positive(MapNode m, String path, String key, String what, String unit) {
    Double value = number(m, path, key);
    if (value != null && (!(value > 0) || value.isInfinite())) {
      problem(
          field(m, key), join(path, key), what + " must be > 0 " + unit + ", got " + fmt(value));
      return null;
    }
    return value;
  }

  private void goesWith(MapNode m, String key, String with) {
    if (field(m, key) != null) {
      problem(field(m, key), join("load", key), key + " goes with " + with);
    }
  }

  private static String lower(String text) {
    return text == null ? null : text.strip().toLowerCase(Locale.ROOT);
  }

  private static String upper(String text) {
    return text.strip().toUpperCase(Locale.ROOT);
  }
}
