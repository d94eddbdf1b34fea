package io.fusillade.workload;

import io.fusillade.limit.LimitSettings;
import io.fusillade.limit.LimitSlo;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the {@code limit} section: how {@code fusillade limit} searches for the maximum sustainable
 * rate ({@link LimitSettings}). Every key is optional:
 *
 * <pre>{@code
 * limit:
 *   from: 100          # first rate, per second
 *   max: 20000         # highest rate tried
 *   growth: 2          # factor of the ramp
 *   step: 30s          # each step
 *   warm_up: 20%       # share of a step left out of its verdict
 *   resolution: 5%     # stop when the bracket is this narrow
 *   confirm: 60s       # the confirmation step (default: as long as a step)
 *   lanes: 1000        # requests in flight at most
 *   max_steps: 40      # the most steps, the confirmation included
 *   slo: [p99 < 50ms, errors < 1%]
 * }</pre>
 */
final class LimitParser extends FieldReader {
  private static final Set<String> KEYS =
      keys(
          "from",
          "max",
          "growth",
          "step",
          "warm_up",
          "resolution",
          "confirm",
          "lanes",
          "max_steps",
          "slo");

  LimitParser(FieldReader shared) {
    super(shared);
  }

  /** The section over the defaults, or empty without one (or when it has problems). */
  Optional<LimitSettings> limit(MapNode top) {
    YamlNode node = field(top, "limit");
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return Optional.empty();
    }
    MapNode m = asMap(node, "limit");
    if (m == null) {
      return Optional.empty();
    }
    int before = problems.size();
    checkKeys(m, "limit", KEYS);
    LimitSettings d = LimitSettings.DEFAULTS;
    LogIngestParser durations = new LogIngestParser(this);
    Double from = number(m, "limit", "from");
    Double max = number(m, "limit", "max");
    Double growth = number(m, "limit", "growth");
    Duration step = durations.duration(m, "limit", "step");
    Double warmUp = share(m, "limit", "warm_up", "20% or 0.2");
    Double resolution = share(m, "limit", "resolution", "20% or 0.2");
    Duration confirm = durations.duration(m, "limit", "confirm");
    Long lanes = integer(m, "limit", "lanes", false);
    Long maxSteps = integer(m, "limit", "max_steps", false);
    List<String> slo = field(m, "slo") == null ? null : objectives(m);
    if (problems.size() > before) {
      return Optional.empty();
    }
    Duration stepLength = step != null ? step : d.step();
    try {
      return Optional.of(
          new LimitSettings(
              from != null ? from : d.from(),
              max != null ? max : Math.max(d.max(), from != null ? from : 0),
              growth != null ? growth : d.growth(),
              stepLength,
              warmUp != null ? warmUp : d.warmUp(),
              resolution != null ? resolution : d.resolution(),
              confirm != null ? confirm : stepLength,
              slo != null ? slo : d.slo(),
              lanes != null ? (int) Math.min(Integer.MAX_VALUE, lanes) : d.lanes(),
              maxSteps != null ? (int) Math.min(Integer.MAX_VALUE, maxSteps) : d.maxSteps()));
    } catch (IllegalArgumentException e) {
      // "limit warm-up must be ...": at the key it names, when the file has it.
      String[] words = e.getMessage().split(" ");
      String key = words.length > 1 ? words[1].replace('-', '_') : "";
      YamlNode at = field(m, key);
      problem(at != null ? at : m, at != null ? join("limit", key) : "limit", e.getMessage());
      return Optional.empty();
    }
  }

  /** The {@code slo} list, each objective checked at its own line. */
  private List<String> objectives(MapNode m) {
    List<String> out = new java.util.ArrayList<>();
    List<YamlNode> items = list(m, "limit", "slo");
    for (int i = 0; i < items.size(); i++) {
      String path = "limit.slo[" + i + "]";
      String text = scalarString(items.get(i), path);
      if (text == null) {
        continue;
      }
      try {
        LimitSlo.parse(List.of(text));
        out.add(text.strip());
      } catch (IllegalArgumentException e) {
        problem(items.get(i), path, e.getMessage());
      }
    }
    return out;
  }
}
