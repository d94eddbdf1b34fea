package io.fusillade.workload;

import io.fusillade.gen.Alphabet;
import io.fusillade.gen.Distribution;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.gen.Vocabulary;
import io.fusillade.workload.YamlNode.ListNode;
import io.fusillade.workload.YamlNode.MapNode;
import io.fusillade.workload.YamlNode.Scalar;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads value specs: the columns of a table, the parameters of a query and the key and message
 * sizes of a topic. Checks the type, distribution, nulls, uniqueness against the number of values
 * needed, and the options of each type (range, alphabet and length, decimal, constant, choice); the
 * bounds of a {@code range} are read by {@link RangeBounds}.
 */
final class ValueParser extends FieldReader {

  private static final Set<String> VALUE_KEYS =
      keys(
          "name",
          "type",
          "distribution",
          "distribution_param",
          "range",
          "alphabet",
          "length",
          "is_nullable",
          "null_percentage",
          "unique",
          "value",
          "values",
          "weights",
          "precision",
          "scale",
          "probability",
          "repeat",
          "array");

  private final RangeBounds rangeBounds;

  ValueParser(FieldReader shared) {
    super(shared);
    this.rangeBounds = new RangeBounds(shared);
  }

  /**
   * Reads a column or a query parameter.
   *
   * @param defaultName the name when none is given (parameters), or null if the name is required
   * @param needed how many values the unique rule must allow (rows or query count)
   * @param neededLabel the field that sets {@code needed}, for messages
   */
  ValueSpec value(MapNode m, String path, String defaultName, long needed, String neededLabel) {
    return value(m, path, defaultName, needed, neededLabel, false);
  }

  /**
   * Reads a query parameter: a value, or an array of values ({@code array: [5, 15]}).
   *
   * @param defaultName the name when none is given ({@code p1}, {@code p2}...)
   * @param count the query's count, for the unique rule
   */
  ValueSpec parameter(MapNode m, String path, String defaultName, long count) {
    return value(m, path, defaultName, count, "count", true);
  }

  private ValueSpec value(
      MapNode m, String path, String defaultName, long needed, String neededLabel, boolean arrays) {
    int before = problems.size();
    checkKeys(m, path, VALUE_KEYS);
    String name = string(m, path, "name", defaultName == null);
    if (name == null) {
      name = defaultName;
    }
    ValueType type = enumField(m, path, "type", true, ValueType::parse, typeNames());
    Distribution.Kind kind =
        Optional.ofNullable(
                enumField(
                    m, path, "distribution", false, Distribution.Kind::parse, distributionNames()))
            .orElse(Distribution.Kind.UNIFORM);
    Distribution distribution = distribution(m, path, kind);
    if (distribution == null) {
      distribution = Distribution.uniform();
    }

    Boolean nullable = bool(m, path, "is_nullable");
    Double nullPercentage = number(m, path, "null_percentage");
    if (nullPercentage != null && !(nullPercentage >= 0 && nullPercentage <= 100)) {
      problem(
          field(m, "null_percentage"),
          join(path, "null_percentage"),
          "null_percentage must be in [0, 100], got " + fmt(nullPercentage));
    } else if (nullPercentage != null && nullPercentage > 0 && !Boolean.TRUE.equals(nullable)) {
      problem(
          field(m, "null_percentage"),
          join(path, "null_percentage"),
          "null_percentage is " + fmt(nullPercentage) + " but is_nullable is not true");
    }
    Boolean unique = bool(m, path, "unique");

    ValueSpec.Builder builder =
        type == null ? null : ValueSpec.builder(name == null ? "?" : name, type);
    if (builder != null) {
      builder
          .distribution(distribution)
          .nullPercentage(nullPercentage == null ? 0 : nullPercentage)
          .unique(unique != null && unique);
      typeOptions(m, path, type, builder);
      repeatAndArray(m, path, arrays, builder);
      if (type == ValueType.DOUBLE && !distribution.isContinuous()) {
        problem(
            field(m, "distribution"),
            join(path, "distribution"),
            kind.label() + " needs a discrete type; double is continuous");
      }
      if (Boolean.TRUE.equals(unique) && (type == ValueType.DOUBLE || type == ValueType.BOOLEAN)) {
        problem(
            field(m, "unique"),
            join(path, "unique"),
            "unique is not supported for " + type.label());
      }
    }
    if (problems.size() > before || builder == null) {
      return null;
    }
    ValueSpec spec;
    try {
      spec = builder.build();
    } catch (IllegalArgumentException e) {
      problems.add(new Problem(m.location(), path, e.getMessage()));
      return null;
    }
    if (spec.unique() && spec.uniqueCapacity() < needed) {
      YamlNode at = field(m, "range") != null ? field(m, "range") : field(m, "unique");
      String what =
          field(m, "range") != null ? "unique range" : "unique " + type.label() + " column";
      problem(
          at,
          join(path, field(m, "range") != null ? "range" : "unique"),
          what
              + " holds "
              + spec.distinctValues()
              + " value"
              + (spec.distinctValues() == 1 ? "" : "s")
              + (spec.repeat() > 1 ? " (" + spec.uniqueCapacity() + " rows with repeat)" : "")
              + " but "
              + neededLabel
              + " is "
              + needed);
      return null;
    }
    return spec;
  }

  /**
   * The distribution and its {@code distribution_param}: one number, or for the families with a
   * second parameter (hotspot, nurand) a number or a list of two. Null when they are wrong (the
   * problems are recorded).
   */
  private Distribution distribution(MapNode m, String path, Distribution.Kind kind) {
    YamlNode node = field(m, "distribution_param");
    if (node == null) {
      return new Distribution(kind, Double.NaN);
    }
    String at = join(path, "distribution_param");
    if (!kind.hasParameter()) {
      problem(node, at, kind.label() + " takes no distribution_param");
      return null;
    }
    Double parameter;
    Double second = Double.NaN;
    if (node instanceof ListNode l) {
      if (!kind.hasSecondParameter() || l.items().size() != 2) {
        problem(
            node,
            at,
            kind.hasSecondParameter()
                ? kind.label() + " takes one number or a list of two, got " + l.items().size()
                : kind.label() + " takes one number, not a list");
        return null;
      }
      parameter = numberOf(l.items().get(0), at + "[0]");
      second = numberOf(l.items().get(1), at + "[1]");
      if (second == null) {
        return null;
      }
    } else {
      parameter = numberOf(node, at);
    }
    if (parameter == null) {
      return null;
    }
    String problem = Distribution.problem(kind, parameter, second);
    if (problem != null) {
      problem(
          node,
          at,
          kind == Distribution.Kind.ZIPF || kind == Distribution.Kind.LATEST
              ? kind.label() + " exponent must be > 0, got " + parameter
              : problem.startsWith(kind.label() + " parameter must be a positive number")
                  ? kind.label() + " parameter must be > 0, got " + parameter
                  : problem);
      return null;
    }
    return new Distribution(kind, parameter, second);
  }

  /**
   * {@code repeat: N} (a value held for N consecutive rows) and, for query parameters, {@code
   * array: N} or {@code array: [min, max]} (each value an array literal of that many values).
   */
  private void repeatAndArray(MapNode m, String path, boolean arrays, ValueSpec.Builder builder) {
    Long repeat = bounded(m, path, "repeat", 1, Integer.MAX_VALUE);
    if (repeat != null) {
      builder.repeat(repeat.intValue());
    }
    YamlNode node = field(m, "array");
    if (node == null) {
      return;
    }
    String at = join(path, "array");
    if (!arrays) {
      problem(node, at, "array applies to query parameters (cast in the SQL: $1::int[]) only");
      return;
    }
    Long min;
    Long max;
    if (node instanceof ListNode l && l.items().size() == 2) {
      min = integerOf(l.items().get(0), at + "[0]");
      max = integerOf(l.items().get(1), at + "[1]");
    } else if (node instanceof Scalar) {
      min = integerOf(node, at);
      max = min;
    } else {
      problem(node, at, "expected a size or [min, max], got " + node.describe());
      return;
    }
    if (min == null || max == null) {
      return;
    }
    if (min < 0 || max > ValueSpec.ArraySize.MAX || min > max) {
      problem(
          node,
          at,
          "array sizes must be within [0, "
              + ValueSpec.ArraySize.MAX
              + "], the first at most the second, got ["
              + min
              + ", "
              + max
              + "]");
      return;
    }
    builder.array(new ValueSpec.ArraySize(min.intValue(), max.intValue()));
  }

  /** The options that depend on the type: range, alphabet and length, decimal, constant, choice. */
  private void typeOptions(MapNode m, String path, ValueType type, ValueSpec.Builder builder) {
    Long precision = integer(m, path, "precision", false);
    Long scale = integer(m, path, "scale", false);
    int p = precision == null ? ValueSpec.DEFAULT_PRECISION : precision.intValue();
    int s = scale == null ? ValueSpec.DEFAULT_SCALE : scale.intValue();
    if (precision != null && (precision < 1 || precision > 18)) {
      problem(field(m, "precision"), join(path, "precision"), "precision must be in [1, 18]");
    } else if (scale != null && (scale < 0 || scale > p)) {
      problem(
          field(m, "scale"), join(path, "scale"), "scale must be in [0, precision = " + p + "]");
    } else if (type == ValueType.DECIMAL) {
      builder.decimal(p, s);
    }

    Alphabet alphabet = alphabet(m, path);
    if (alphabet != null) {
      builder.alphabet(alphabet);
    }
    int[] length = length(m, path);
    if (length != null) {
      builder.length(length[0], length[1]);
    }

    YamlNode rangeNode = field(m, "range");
    if (rangeNode != null && (type.isDiscreteRange() || type == ValueType.DOUBLE)) {
      Object[] bounds = rangeBounds.bounds(rangeNode, join(path, "range"), type, p, s);
      if (bounds != null) {
        builder.range(bounds[0], bounds[1]);
        if (type == ValueType.STRING) {
          int min = length == null ? ValueSpec.DEFAULT_MIN_LENGTH : length[0];
          int max = length == null ? ValueSpec.DEFAULT_MAX_LENGTH : length[1];
          int size = alphabet == null ? Alphabet.EN.length() : alphabet.size();
          long capacity = Vocabulary.capacityOf(size, min, max);
          if ((Long) bounds[1] >= capacity) {
            problem(
                rangeNode,
                join(path, "range"),
                "right bound "
                    + bounds[1]
                    + " is past the last of the "
                    + capacity
                    + " strings of length "
                    + min
                    + ".."
                    + max
                    + " over this alphabet");
          }
        }
        if (isNormal(m) && RangeBounds.overflows(type, bounds)) {
          problem(
              rangeNode,
              join(path, "range"),
              "normal distribution: left + right bound ("
                  + bounds[0]
                  + " + "
                  + bounds[1]
                  + ") overflows "
                  + type.label());
        }
      }
    }

    Double probability = number(m, path, "probability");
    if (probability != null) {
      if (!(probability >= 0 && probability <= 1)) {
        problem(
            field(m, "probability"),
            join(path, "probability"),
            "probability must be in [0, 1], got " + fmt(probability));
      } else {
        builder.probability(probability);
      }
    }

    YamlNode valueNode = field(m, "value");
    if (type == ValueType.CONSTANT) {
      if (valueNode == null) {
        problems.add(new Problem(m.location(), join(path, "value"), "a constant needs a value"));
      } else if (valueNode instanceof Scalar scalar) {
        builder.constant(plain(scalar));
      } else {
        problem(
            valueNode, join(path, "value"), "expected a single value, got " + valueNode.describe());
      }
    }

    if (type == ValueType.CHOICE) {
      choice(m, path, builder);
    }
  }

  private boolean isNormal(MapNode m) {
    return field(m, "distribution") instanceof Scalar s
        && Distribution.Kind.parse(s.text()).orElse(null) == Distribution.Kind.NORMAL;
  }

  private void choice(MapNode m, String path, ValueSpec.Builder builder) {
    YamlNode valuesNode = field(m, "values");
    if (valuesNode == null) {
      problems.add(new Problem(m.location(), join(path, "values"), "a choice needs values"));
      return;
    }
    List<YamlNode> items = list(m, path, "values");
    if (valuesNode instanceof ListNode && items.isEmpty()) {
      problem(valuesNode, join(path, "values"), "a choice needs at least one value");
      return;
    }
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i) instanceof Scalar s) {
        values.add(plain(s));
      } else {
        problem(
            items.get(i),
            join(path, "values[" + i + "]"),
            "expected a single value, got " + items.get(i).describe());
      }
    }
    List<Double> weights = new ArrayList<>();
    YamlNode weightsNode = field(m, "weights");
    List<YamlNode> weightItems = list(m, path, "weights");
    for (int i = 0; i < weightItems.size(); i++) {
      String itemPath = join(path, "weights[" + i + "]");
      Double w = numberOf(weightItems.get(i), itemPath);
      if (w != null && !(w >= 0 && !w.isInfinite())) {
        problem(weightItems.get(i), itemPath, "a weight must be >= 0, got " + fmt(w));
      } else if (w != null) {
        weights.add(w);
      }
    }
    if (weightsNode instanceof ListNode && weightItems.size() != items.size()) {
      problem(
          weightsNode,
          join(path, "weights"),
          weightItems.size() + " weights for " + items.size() + " values; give one per value");
    } else if (weightsNode instanceof ListNode && weights.stream().allMatch(w -> w == 0)) {
      problem(weightsNode, join(path, "weights"), "at least one weight must be > 0");
    }
    builder.choices(values, weights.size() == values.size() ? weights : List.of());
  }

  private Alphabet alphabet(MapNode m, String path) {
    YamlNode node = field(m, "alphabet");
    if (node == null) {
      return null;
    }
    List<YamlNode> items =
        node instanceof ListNode l ? l.items() : node instanceof Scalar ? List.of(node) : null;
    if (items == null) {
      problem(
          node,
          join(path, "alphabet"),
          "expected a list of alphabet names, got " + node.describe());
      return null;
    }
    List<String> names = new ArrayList<>();
    for (int i = 0; i < items.size(); i++) {
      String itemPath = join(path, "alphabet") + (node instanceof ListNode ? "[" + i + "]" : "");
      String text = scalarString(items.get(i), itemPath);
      if (text == null) {
        return null;
      }
      if (Alphabet.charactersOf(text).isEmpty()) {
        problem(
            items.get(i),
            itemPath,
            "unknown alphabet '"
                + text
                + "'"
                + didYouMean(text, Alphabet.NAMES)
                + " (one of en, ru, digits, or chars:<characters>)");
        return null;
      }
      names.add(text);
    }
    try {
      return Alphabet.of(names);
    } catch (IllegalArgumentException e) {
      problem(node, join(path, "alphabet"), e.getMessage());
      return null;
    }
  }

  private int[] length(MapNode m, String path) {
    YamlNode node = field(m, "length");
    if (node == null) {
      return null;
    }
    String lengthPath = join(path, "length");
    Long min;
    Long max;
    if (node instanceof ListNode l && l.items().size() == 2) {
      min = integerOf(l.items().get(0), lengthPath + "[0]");
      max = integerOf(l.items().get(1), lengthPath + "[1]");
    } else if (node instanceof Scalar) {
      min = integerOf(node, lengthPath);
      max = min;
    } else {
      problem(node, lengthPath, "expected a length or [min, max], got " + node.describe());
      return null;
    }
    if (min == null || max == null) {
      return null;
    }
    if (min < 1 || max > 1_000_000) {
      problem(node, lengthPath, "string lengths must be in [1, 1000000]");
      return null;
    }
    if (min > max) {
      problem(node, lengthPath, "minimum length " + min + " is greater than maximum length " + max);
      return null;
    }
    return new int[] {min.intValue(), max.intValue()};
  }

  /** Converts a {@code range} to typed bounds, or reports why it cannot. */
  private static List<String> typeNames() {
    return Arrays.stream(ValueType.values()).map(ValueType::label).toList();
  }

  private static List<String> distributionNames() {
    return Arrays.stream(Distribution.Kind.values()).map(Distribution.Kind::label).toList();
  }
}
