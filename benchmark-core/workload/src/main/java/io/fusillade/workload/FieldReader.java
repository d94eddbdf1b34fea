package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import io.fusillade.workload.YamlNode.Entry;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The typed-field reader every section parser shares: it reads one field of a YAML mapping as text,
 * an integer, a number, a boolean, a list, an enum name or a secret, and on a wrong type records a
 * {@link Problem} at the node's line and column with its field path, returning null (or an empty
 * list) so that parsing goes on and every problem of a file is reported in one pass.
 *
 * <p>The section parsers ({@link ValueParser}, {@link SqlParser}, {@link TopicsParser}, {@link
 * LogsParser}) extend it and are built over one shared instance ({@link
 * #FieldReader(FieldReader)}), so they all add to the same list of problems and read the same
 * environment.
 */
class FieldReader {

  /** Lookup of {@code ${env:NAME}} values (null for unset). */
  final Function<String, String> environment;

  /** Every problem found so far, in the order found; shared by all parsers of one file. */
  final List<Problem> problems;

  /**
   * The workload's scale factor, shared by all parsers of one file: an integer written {@code
   * 150000 * scale} (a row count, a range bound) is 150000 times it, rounded.
   */
  final double[] scale;

  /** An integer written as a multiple of the scale: {@code 6_000_000 * scale}. */
  private static final java.util.regex.Pattern SCALED =
      java.util.regex.Pattern.compile(
          "([0-9][0-9_]*(?:\\.[0-9]+)?)\\s*\\*\\s*scale(?:\\s*([+-])\\s*([0-9][0-9_]*))?");

  /**
   * @param environment the lookup of environment variables (null for unset)
   * @param problems where problems are added
   */
  FieldReader(Function<String, String> environment, List<Problem> problems) {
    this(environment, problems, new double[] {1});
  }

  private FieldReader(
      Function<String, String> environment, List<Problem> problems, double[] scale) {
    this.environment = environment;
    this.problems = problems;
    this.scale = scale;
  }

  /** A reader over the same environment, problem list and scale as {@code shared}. */
  FieldReader(FieldReader shared) {
    this(shared.environment, shared.problems, shared.scale);
  }

  /**
   * The value of {@code 150000 * scale}, rounded (at least 1 when the multiple is not 0), plus or
   * minus a whole offset when one follows ({@code 100_000 * scale + 1}: the first key after the
   * loaded ones), or null when {@code text} is not of that form.
   */
  Long scaled(String text) {
    java.util.regex.Matcher m = SCALED.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    double multiple = Double.parseDouble(m.group(1).replace("_", ""));
    long value = Math.round(multiple * scale[0]);
    value = multiple > 0 ? Math.max(1, value) : value;
    if (m.group(2) != null) {
      long offset = Long.parseLong(m.group(3).replace("_", ""));
      value = m.group(2).equals("+") ? value + offset : value - offset;
    }
    return value;
  }

  // ---------------------------------------------------------------- keys and nodes

  /** Reports each key of {@code m} that is not in {@code known}, with a "did you mean". */
  void checkKeys(MapNode m, String path, Set<String> known) {
    for (Entry e : m.entries()) {
      if (!known.contains(e.key())) {
        problems.add(
            new Problem(
                e.keyLocation(),
                join(path, e.key()),
                "unknown key '" + e.key() + "'" + didYouMean(e.key(), known)));
      }
    }
  }

  /** The value of {@code key} in {@code m}, or null when the key is absent. */
  static YamlNode field(MapNode m, String key) {
    for (Entry e : m.entries()) {
      if (e.key().equals(key)) {
        return e.value();
      }
    }
    return null;
  }

  MapNode asMap(YamlNode node, String path) {
    if (node instanceof MapNode m) {
      return m;
    }
    problem(node, path, "expected a mapping (key: value lines), got " + node.describe());
    return null;
  }

  /** A "missing required field" problem at the mapping, for a key that is absent. */
  void missing(MapNode m, String path, String key) {
    problems.add(new Problem(m.location(), join(path, key), "missing required field"));
  }

  // ---------------------------------------------------------------- scalars

  String string(MapNode m, String path, String key, boolean required) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      if (required) {
        problems.add(
            new Problem(
                node == null ? m.location() : node.location(),
                join(path, key),
                "missing required field"));
      }
      return null;
    }
    return scalarString(node, join(path, key));
  }

  String scalarString(YamlNode node, String path) {
    if (node instanceof Scalar s && !s.isNull()) {
      return s.text();
    }
    problem(node, path, "expected text, got " + node.describe());
    return null;
  }

  Long integer(MapNode m, String path, String key, boolean required) {
    YamlNode node = field(m, key);
    if (node == null) {
      if (required) {
        missing(m, path, key);
      }
      return null;
    }
    return integerOf(node, join(path, key));
  }

  Long integerOf(YamlNode node, String path) {
    if (node instanceof Scalar s && s.token() == JsonToken.VALUE_STRING) {
      Long value = scaled(s.text());
      if (value != null) {
        return value;
      }
    }
    if (node instanceof Scalar s && s.token() == JsonToken.VALUE_NUMBER_INT) {
      try {
        return Long.parseLong(s.text().replace("_", ""));
      } catch (NumberFormatException e) {
        problem(node, path, "integer " + s.text() + " is too large");
        return null;
      }
    }
    problem(node, path, "expected an integer" + scaleHint(node) + ", got " + node.describe());
    return null;
  }

  /** The scale form, named in the error when the value mentions the scale. */
  static String scaleHint(YamlNode node) {
    return node instanceof Scalar s && s.text().contains("scale")
        ? " (or a multiple of the scale: 1000 * scale)"
        : "";
  }

  /** An optional integer in [min, max]. */
  Long bounded(MapNode m, String path, String key, long min, long max) {
    Long value = integer(m, path, key, false);
    if (value == null) {
      return null;
    }
    if (value < min || value > max) {
      problem(
          field(m, key),
          join(path, key),
          key
              + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                  ? " must be >= " + min
                  : " must be between " + min + " and " + max)
              + ", got "
              + value);
      return null;
    }
    return value;
  }

  Double number(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    return node == null ? null : numberOf(node, join(path, key));
  }

  Double numberOf(YamlNode node, String path) {
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_NUMBER_INT || s.token() == JsonToken.VALUE_NUMBER_FLOAT)) {
      try {
        return Double.parseDouble(s.text().replace("_", ""));
      } catch (NumberFormatException e) {
        // YAML numbers such as .inf: report below
      }
    }
    problem(node, path, "expected a number, got " + node.describe());
    return null;
  }

  Boolean bool(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null) {
      return null;
    }
    if (node instanceof Scalar s
        && (s.token() == JsonToken.VALUE_TRUE || s.token() == JsonToken.VALUE_FALSE)) {
      return s.token() == JsonToken.VALUE_TRUE;
    }
    problem(node, join(path, key), "expected true or false, got " + node.describe());
    return null;
  }

  /**
   * A name from a fixed list.
   *
   * @param parser the name to its value, empty when unknown
   * @param names the known names, for the message
   */
  <T> T enumField(
      MapNode m,
      String path,
      String key,
      boolean required,
      Function<String, Optional<T>> parser,
      List<String> names) {
    String text = string(m, path, key, required);
    if (text == null) {
      return null;
    }
    Optional<T> parsed = parser.apply(text);
    if (parsed.isEmpty()) {
      problem(
          field(m, key),
          join(path, key),
          "unknown "
              + key
              + " '"
              + text
              + "'"
              + didYouMean(text, names)
              + " (one of "
              + String.join(", ", names)
              + ")");
      return null;
    }
    return parsed.get();
  }

  /**
   * A share written {@code 20%} or {@code 0.2}, as a fraction; null when absent or wrong (then a
   * problem that gives {@code example}).
   */
  Double share(MapNode m, String path, String key, String example) {
    YamlNode node = field(m, key);
    if (node == null) {
      return null;
    }
    String text = text(node).strip();
    try {
      return text.endsWith("%")
          ? Double.parseDouble(text.substring(0, text.length() - 1).strip()) / 100
          : Double.parseDouble(text);
    } catch (NumberFormatException e) {
      problem(node, join(path, key), "expected a share such as " + example + ", got " + text);
      return null;
    }
  }

  /** A text field with its {@code ${env:NAME}} references replaced. */
  String secret(MapNode m, String path, String key) {
    String raw = string(m, path, key, false);
    if (raw == null) {
      return null;
    }
    return Interpolation.apply(
            raw, environment, problems, field(m, key).location(), join(path, key))
        .orElse(null);
  }

  /**
   * The duration {@code amount unit}, where unit is {@code ms}, {@code s}, {@code m} or {@code h}
   * (anything else counts as hours); the sections differ in which spellings they accept.
   */
  static Duration durationOf(long amount, String unit) {
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      default -> Duration.ofHours(amount);
    };
  }

  // ---------------------------------------------------------------- lists and mappings

  List<YamlNode> list(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (node instanceof ListNode l) {
      return l.items();
    }
    problem(node, join(path, key), "expected a list, got " + node.describe());
    return List.of();
  }

  /** What to do with one mapping of a list. */
  @FunctionalInterface
  interface ItemReader {
    /**
     * @param m the item
     * @param path its path, such as {@code tables_schema[2]}
     * @param index its position in the list
     */
    void read(MapNode m, String path, int index);
  }

  /**
   * Reads each item of the list {@code key} that is a mapping; an item of another kind is a
   * problem.
   */
  void eachMapping(MapNode parent, String path, String key, ItemReader reader) {
    List<YamlNode> items = list(parent, path, key);
    for (int i = 0; i < items.size(); i++) {
      String itemPath = join(path, key + "[" + i + "]");
      MapNode m = asMap(items.get(i), itemPath);
      if (m != null) {
        reader.read(m, itemPath, i);
      }
    }
  }

  /** A list of names; a single name is accepted as a list of one. */
  List<String> stringList(MapNode m, String path, String key) {
    YamlNode node = field(m, key);
    if (node == null || node instanceof Scalar s && s.isNull()) {
      return List.of();
    }
    if (node instanceof Scalar) {
      String one = scalarString(node, join(path, key));
      return one == null ? List.of() : List.of(one);
    }
    List<String> out = new ArrayList<>();
    List<YamlNode> items = list(m, path, key);
    for (int i = 0; i < items.size(); i++) {
      String text = scalarString(items.get(i), join(path, key) + "[" + i + "]");
      if (text != null) {
        out.add(text);
      }
    }
    return out;
  }

  /** A node as plain Java values: maps, lists, strings, longs, doubles, booleans, nulls. */
  static Object plain(YamlNode node) {
    if (node instanceof MapNode m) {
      Map<String, Object> map = new LinkedHashMap<>();
      m.entries().forEach(e -> map.put(e.key(), plain(e.value())));
      return map;
    }
    if (node instanceof ListNode l) {
      return l.items().stream().map(FieldReader::plain).toList();
    }
    Scalar s = (Scalar) node;
    return switch (s.token()) {
      case VALUE_NULL -> null;
      case VALUE_TRUE -> Boolean.TRUE;
      case VALUE_FALSE -> Boolean.FALSE;
      case VALUE_NUMBER_INT -> {
        try {
          yield Long.parseLong(s.text().replace("_", ""));
        } catch (NumberFormatException e) {
          yield new BigInteger(s.text().replace("_", ""));
        }
      }
      case VALUE_NUMBER_FLOAT -> Double.parseDouble(s.text());
      default -> s.text();
    };
  }

  // ---------------------------------------------------------------- messages

  void problem(YamlNode node, String path, String message) {
    problems.add(new Problem(node.location(), path, message));
  }

  /**
   * Records the first use of a name; on a second use, reports it with the line of the first.
   *
   * @param seen the names used so far and where
   * @param at the node that uses the name now
   * @param what what the name names, for the message ("table", "topic"...)
   */
  void firstUse(Map<String, Location> seen, String name, YamlNode at, String path, String what) {
    Location first = seen.putIfAbsent(name, at.location());
    if (first != null) {
      problem(
          at, path, "duplicate " + what + " '" + name + "' (first at line " + first.line() + ")");
    }
  }

  /** {@code "; did you mean 'x'?"} for the closest candidate, or "" when none is close. */
  static String didYouMean(String word, Collection<String> candidates) {
    return Suggestions.closest(word, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
  }

  /** A scalar's text as written, or the description of another node. */
  static String text(YamlNode node) {
    return node instanceof Scalar s ? s.text() : node.describe();
  }

  /** A number without ".0" when it is whole. */
  static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  /** The path of {@code key} below {@code path}. */
  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** A set of key names, in the order given (the order of "did you mean" ties). */
  static Set<String> keys(String... names) {
    return new LinkedHashSet<>(Arrays.asList(names));
  }

  static Set<String> union(Set<String> a, Set<String> b) {
    return Stream.concat(a.stream(), b.stream())
        .collect(Collectors.toCollection(LinkedHashSet::new));
  }
}
