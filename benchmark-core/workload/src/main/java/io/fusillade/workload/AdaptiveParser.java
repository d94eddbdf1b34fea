package io.fusillade.workload;

import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSlo;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the {@code adaptive} section: how {@code fusillade run --mode adaptive} steers the arrival
 * rate to hold the objectives ({@link AdaptiveSettings}). Every key is optional; the rate mode's
 * {@code load.rate} and {@code load.duration} give the start and the length when these do not:
 *
 * <pre>{@code
 * adaptive:
 *   start: 100         # first rate, per second
 *   min: 10            # lowest rate
 *   max: 20000         # highest rate
 *   increase: 10%      # growth a second while every objective holds
 *   decrease: 0.95     # factor of the served rate when one fails
 *   window: 2s         # the seconds each judgement is made on
 *   duration: 30m      # how long the run lasts
 *   lanes: 1000        # requests in flight at most
 *   slo: [p99 < 20ms, errors < 1%]
 * }</pre>
 */
final class AdaptiveParser extends FieldReader {
  private static final String SECTION = "adaptive";
  private static final Set<String> KEYS =
      keys("start", "min", "max", "increase", "decrease", "window", "duration", "lanes", "slo");

  AdaptiveParser(FieldReader shared) {
    super(shared);
  }

  /** The section over the defaults, or empty without one (or when it has problems). */
  Optional<AdaptiveSettings> adaptive(MapNode top) {
    YamlNode node = field(top, SECTION);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return Optional.empty();
    }
    MapNode m = asMap(node, SECTION);
    if (m == null) {
      return Optional.empty();
    }
    int before = problems.size();
    checkKeys(m, SECTION, KEYS);
    AdaptiveSettings d = AdaptiveSettings.DEFAULTS;
    LogIngestParser durations = new LogIngestParser(this);
    Double start = number(m, SECTION, "start");
    Double min = number(m, SECTION, "min");
    Double max = number(m, SECTION, "max");
    Double increase = share(m, SECTION, "increase", "10% or 0.1");
    Double decrease = number(m, SECTION, "decrease");
    Duration window = durations.duration(m, SECTION, "window");
    Duration duration = durations.duration(m, SECTION, "duration");
    Long lanes = integer(m, SECTION, "lanes", false);
    List<String> slo = field(m, "slo") == null ? null : objectives(m);
    if (problems.size() > before) {
      return Optional.empty();
    }
    double low = min != null ? min : Math.min(d.min(), start != null ? start : d.min());
    double high = max != null ? max : Math.max(d.max(), start != null ? start : 0);
    double first = start != null ? start : Math.min(high, Math.max(low, d.start()));
    try {
      return Optional.of(
          new AdaptiveSettings(
              first,
              low,
              high,
              increase != null ? increase : d.increase(),
              decrease != null ? decrease : d.decrease(),
              window != null ? window : d.window(),
              duration != null ? duration : d.duration(),
              slo != null ? slo : d.slo(),
              lanes != null ? (int) Math.min(Integer.MAX_VALUE, lanes) : d.lanes()));
    } catch (IllegalArgumentException e) {
      // "adaptive window must be ...": at the key it names.
      String[] words = e.getMessage().split(" ");
      String key = words.length > 1 ? words[1] : "";
      YamlNode at = field(m, key);
      problem(at != null ? at : m, at != null ? join(SECTION, key) : SECTION, e.getMessage());
      return Optional.empty();
    }
  }

  /** The {@code slo} list, each objective checked at its own line. */
  private List<String> objectives(MapNode m) {
    List<String> out = new ArrayList<>();
    List<YamlNode> items = list(m, SECTION, "slo");
    for (int i = 0; i < items.size(); i++) {
      String path = SECTION + ".slo[" + i + "]";
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
