package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Spike;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the verdict and the load of a workload: the {@code checks} list (kept as text: see {@link
 * CheckText}) and the {@code load} section ({@link Load}), which says how the queries are sent.
 * {@code config_name: QUEUE} (Picostress's name of queue mode) selects queue mode when {@code
 * load.mode} does not say otherwise.
 */
final class LoadParser extends FieldReader {

  private static final Set<String> LOAD_KEYS =
      keys("mode", "users", "rate", "duration", "spike", "stages");
  private static final Set<String> SPIKE_KEYS = keys("peak", "rise", "hold", "fall");
  private static final List<String> MODES = List.of("queue", "rate");
  private static final Set<String> STAGE_KEYS = keys("ramp", "over", "hold", "spike", "for");

  /** A ramp's rates: {@code 0..200} (from 0 to 200) or {@code 200} (from the rate before). */
  private static final Pattern RANGE =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*\\.\\.\\s*([0-9]+(?:\\.[0-9]+)?)");

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
    List<Stage> stages = stages(m, "load");
    if (effective == Mode.QUEUE) {
      String why = " (queue mode runs the queue once, with users)";
      goesWith(m, "rate", "mode: rate" + why);
      goesWith(m, "duration", "mode: rate" + why);
      goesWith(m, "spike", "mode: rate" + why);
      goesWith(m, "stages", "mode: rate" + why);
    } else {
      goesWith(m, "users", "mode: queue (rate mode sends rate arrivals per second)");
      if (field(m, "stages") != null) {
        for (String key : List.of("rate", "duration", "spike")) {
          if (field(m, key) != null) {
            problem(
                field(m, key),
                join("load", key),
                "give stages or rate, duration and spike, not both: stages state the whole"
                    + " profile");
          }
        }
      }
    }
    return new Load(
        effective, users == null ? null : users.intValue(), rate, duration, spike, stages);
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

  /**
   * The {@code abort} list: rules that stop the run while it is under way, each read here so that a
   * bad one is named by its line and column before anything starts.
   *
   * @param top the file's mapping
   */
  List<AbortRule> abortRules(MapNode top) {
    return sentences(top, "abort", AbortRule::parse);
  }

  /**
   * A top-level list of sentences, each read by {@code reader}; a sentence it refuses ({@link
   * IllegalArgumentException}) is a problem at its line and column, with the reader's message. An
   * unquoted {@code - at 20s run: cmd}, which YAML reads as a mapping, is taken as the sentence.
   */
  private <T> List<T> sentences(
      MapNode top, String key, java.util.function.Function<String, T> reader) {
    List<T> read = new ArrayList<>();
    List<YamlNode> items = list(top, "", key);
    for (int i = 0; i < items.size(); i++) {
      String path = key + "[" + i + "]";
      String text = commandFault(items.get(i));
      if (text == null) {
        text = scalarString(items.get(i), path);
      }
      if (text == null) {
        continue;
      }
      try {
        read.add(reader.apply(text));
      } catch (IllegalArgumentException e) {
        problem(items.get(i), path, e.getMessage());
      }
    }
    return read;
  }

  /**
   * The {@code faults} list: faults scheduled during the run ({@code at 30s pause broker 2 for
   * 10s}, {@code at 20s run: ssh db3 ...}), each read here so that a bad one is named by its line
   * and column before anything starts. Whether the run has the local server a fault names is known
   * once it started them: the run fails then, naming the fault.
   *
   * @param top the file's mapping
   */
  List<Fault> faults(MapNode top) {
    return sentences(top, "faults", Fault::parse);
  }

  /**
   * A command fault written unquoted, {@code - at 20s run: ssh db3 ...}, which YAML reads as a
   * mapping of {@code at 20s run} to the command: its text as meant, or null for any other node.
   */
  private static String commandFault(YamlNode item) {
    if (item instanceof MapNode map
        && map.entries().size() == 1
        && map.entries().get(0).key().strip().matches("(?i)at\\s+\\S+\\s+run")
        && map.entries().get(0).value() instanceof YamlNode.Scalar command
        && !command.isNull()) {
      return map.entries().get(0).key().strip() + ": " + command.text();
    }
    return null;
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

  /**
   * The {@code stages} list of a mapping ({@code load.stages}, {@code topics[i].stages}, {@code
   * logs.stages}): ramps, holds and spikes, in order, as rate stages. A ramp without a start
   * ({@code ramp: 200}) starts at the rate before it (0 at first); a spike is a hold at its peak,
   * after which the rate returns to the one before it. The one parser of stages, so that every
   * section reads and reports them alike.
   *
   * @param parent the mapping holding {@code stages}
   * @param parentPath its path in messages, such as {@code load} or {@code topics[0]}
   * @return the stages; empty when there are none or any is wrong (each wrong one is a problem)
   */
  List<Stage> stages(MapNode parent, String parentPath) {
    YamlNode node = field(parent, "stages");
    if (node == null) {
      return List.of();
    }
    String listPath = join(parentPath, "stages");
    List<YamlNode> items = list(parent, parentPath, "stages");
    if (items.isEmpty() && node instanceof YamlNode.ListNode) {
      problem(node, listPath, "stages needs at least one stage");
    }
    int before = problems.size();
    List<Stage> stages = new ArrayList<>();
    double current = 0;
    for (int i = 0; i < items.size(); i++) {
      String path = listPath + "[" + i + "]";
      MapNode m = asMap(items.get(i), path);
      if (m == null) {
        continue;
      }
      Stage stage = stage(m, path, current);
      if (stage != null) {
        stages.add(stage);
        if (field(m, "spike") == null) {
          current = stage.to();
        }
      }
    }
    return problems.size() > before ? List.of() : stages;
  }

  private Stage stage(MapNode m, String path, double current) {
    checkKeys(m, path, STAGE_KEYS);
    List<String> kinds =
        Stream.of("ramp", "hold", "spike").filter(k -> field(m, k) != null).toList();
    if (kinds.isEmpty()) {
      problems.add(
          new Problem(
              m.location(),
              path,
              "a stage is one of ramp (with over), hold or spike (with for): {ramp: 0..200,"
                  + " over: 10s}, {hold: 200, for: 60s}, {spike: 1000, for: 10s}"));
      return null;
    }
    if (kinds.size() > 1) {
      String second = kinds.get(1);
      problem(
          field(m, second),
          join(path, second),
          "give one of ramp, hold or spike per stage, not " + kinds.get(0) + " and " + second);
      return null;
    }
    String kind = kinds.get(0);
    String length = kind.equals("ramp") ? "over" : "for";
    String other = kind.equals("ramp") ? "for" : "over";
    if (field(m, other) != null) {
      problem(
          field(m, other),
          join(path, other),
          other + " goes with " + (other.equals("over") ? "ramp" : "hold and spike"));
      return null;
    }
    if (field(m, length) == null) {
      missing(m, path, length);
      return null;
    }
    Duration duration = new LogIngestParser(this).duration(m, path, length);
    if (kind.equals("ramp")) {
      double[] range = ramp(field(m, "ramp"), join(path, "ramp"), current);
      return range == null || duration == null ? null : new Stage(range[0], range[1], duration);
    }
    Double rate = number(m, path, kind);
    if (rate == null) {
      return null;
    }
    boolean spike = kind.equals("spike");
    if (spike ? !(rate > 0) : !(rate >= 0) || rate.isInfinite()) {
      problem(
          field(m, kind),
          join(path, kind),
          (spike ? "a spike's peak must be > 0" : "a hold's rate must be >= 0")
              + " arrivals/s, got "
              + fmt(rate));
      return null;
    }
    return duration == null ? null : new Stage(rate, rate, duration);
  }

  /** A ramp's start and end: {@code 0..200}, or {@code 200} from the current rate. */
  private double[] ramp(YamlNode node, String path, double current) {
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_NUMBER_FLOAT)) {
      Double to = numberOf(node, path);
      if (to != null && to >= 0 && !to.isInfinite()) {
        return new double[] {current, to};
      }
    } else if (node instanceof Scalar s && s.token() == JsonToken.VALUE_STRING) {
      Matcher match = RANGE.matcher(s.text().strip());
      if (match.matches()) {
        return new double[] {
          Double.parseDouble(match.group(1)), Double.parseDouble(match.group(2))
        };
      }
    }
    problem(
        node,
        path,
        "expected a rate such as 200 (from the rate before) or a range such as 0..200, got "
            + node.describe());
    return null;
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
