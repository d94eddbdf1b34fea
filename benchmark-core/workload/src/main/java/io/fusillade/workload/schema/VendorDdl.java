package io.fusillade.workload.schema;

import io.fusillade.workload.Index;
import io.fusillade.workload.Table;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a dialect makes of a table's or an index's vendor keys (Picostress' {@code engine}, {@code
 * distribution_keys}, {@code tier}, {@code timeout}; an index's {@code type} and {@code options}):
 * the clauses it adds to the statement, the timeout it runs under, and the keys it cannot honour,
 * which {@code schema up} reports as ignored rather than dropping them silently.
 *
 * <table>
 *   <caption>Who uses what</caption>
 *   <tr><th>key</th><th>Picodata</th><th>Greenplum</th><th>PostgreSQL</th><th>other JDBC</th></tr>
 *   <tr><td>engine</td><td>USING memtx|vinyl</td><td>ignored</td><td>ignored</td><td>ignored</td></tr>
 *   <tr><td>distribution_keys</td><td>DISTRIBUTED BY (...)</td><td>DISTRIBUTED BY (...)</td>
 *       <td>ignored</td><td>ignored</td></tr>
 *   <tr><td>tier</td><td>IN TIER "..."</td><td>ignored</td><td>ignored</td><td>ignored</td></tr>
 *   <tr><td>timeout</td><td>OPTION (TIMEOUT = s)</td><td colspan="3">the statement's query
 *       timeout (JDBC)</td></tr>
 *   <tr><td>index type</td><td>USING TREE|HASH|RTREE|BITSET</td><td>USING btree|hash|gist|bitmap...
 *       </td><td>USING btree|hash|gist|gin|brin|spgist</td><td>ignored</td></tr>
 *   <tr><td>index options</td><td>WITH (...)</td><td colspan="2">WITH (...) of PostgreSQL's index
 *       storage parameters; others ignored</td><td>ignored</td></tr>
 * </table>
 *
 * @param clauses what follows the column list (table) or comes as {@code USING ...} before it and
 *     {@code WITH ...} after it (index), already spelled for the dialect
 * @param using the index method clause ({@code using hash}), or empty
 * @param timeout the statement's timeout, or null
 * @param ignored the keys the dialect cannot honour, as {@code key: value}
 */
public record VendorDdl(String clauses, String using, Duration timeout, List<String> ignored) {

  /** PostgreSQL's index methods, and the Picostress / Tarantool names that map onto them. */
  private static final Map<String, String> PG_METHODS =
      Map.of(
          "btree", "btree",
          "tree", "btree",
          "hash", "hash",
          "gist", "gist",
          "rtree", "gist",
          "gin", "gin",
          "brin", "brin",
          "spgist", "spgist");

  /** PostgreSQL's index storage parameters (CREATE INDEX ... WITH). */
  private static final Set<String> PG_INDEX_PARAMETERS =
      Set.of(
          "fillfactor",
          "deduplicate_items",
          "buffering",
          "fastupdate",
          "gin_pending_list_limit",
          "pages_per_range",
          "autosummarize");

  private static final Set<String> PICODATA_INDEX_TYPES = Set.of("tree", "hash", "rtree", "bitset");
  private static final Set<String> PICODATA_ENGINES = Set.of("memtx", "vinyl");

  /** Copies the list. */
  public VendorDdl {
    ignored = List.copyOf(ignored);
  }

  /**
   * A table's vendor keys in {@code dialect}.
   *
   * @param table the table
   * @param dialect the target's dialect
   * @return the clauses, timeout and ignored keys
   */
  public static VendorDdl table(Table table, Dialect dialect) {
    StringBuilder clauses = new StringBuilder();
    List<String> ignored = new ArrayList<>();
    Duration timeout = null;
    for (Map.Entry<String, Object> e : table.vendorOptions().entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      switch (key) {
        case "engine" -> {
          String engine = String.valueOf(value).toLowerCase(Locale.ROOT);
          if (dialect == Dialect.PICODATA && PICODATA_ENGINES.contains(engine)) {
            clauses.append(" using ").append(engine);
          } else {
            ignored.add(key + ": " + value);
          }
        }
        case "distribution_keys" -> {
          List<String> columns = names(value);
          if ((dialect == Dialect.PICODATA || dialect == Dialect.GREENPLUM) && !columns.isEmpty()) {
            clauses.append(" distributed by (").append(quoted(columns)).append(')');
          } else {
            ignored.add(key + ": " + columns);
          }
        }
        case "tier" -> {
          if (dialect == Dialect.PICODATA) {
            clauses.append(" in tier ").append(identifier(String.valueOf(value)));
          } else {
            ignored.add(key + ": " + value);
          }
        }
        case "timeout" -> timeout = seconds(value);
        default -> ignored.add(key + ": " + value);
      }
    }
    return finish(clauses, "", timeout, ignored, dialect);
  }

  /**
   * An index's vendor keys in {@code dialect}.
   *
   * @param index the index
   * @param dialect the target's dialect
   * @return the clauses, timeout and ignored keys
   */
  public static VendorDdl index(Index index, Dialect dialect) {
    String using = "";
    List<String> with = new ArrayList<>();
    List<String> ignored = new ArrayList<>();
    Duration timeout = null;
    for (Map.Entry<String, Object> e : index.vendorOptions().entrySet()) {
      String key = e.getKey();
      Object value = e.getValue();
      switch (key) {
        case "type" -> {
          String type = String.valueOf(value).toLowerCase(Locale.ROOT);
          String method =
              switch (dialect) {
                case PICODATA -> PICODATA_INDEX_TYPES.contains(type) ? type : null;
                case GREENPLUM ->
                    type.equals("bitset") || type.equals("bitmap")
                        ? "bitmap"
                        : PG_METHODS.get(type);
                case POSTGRESQL -> PG_METHODS.get(type);
                case GENERIC -> null;
              };
          if (method != null) {
            using = " using " + method;
          } else {
            ignored.add(key + ": " + value);
          }
        }
        case "options" -> {
          for (Object option : value instanceof List<?> list ? list : List.of(value)) {
            String name = option instanceof Map<?, ?> m ? String.valueOf(m.get("name")) : null;
            Object v = option instanceof Map<?, ?> m ? m.get("value") : null;
            String lower = name == null ? "" : name.toLowerCase(Locale.ROOT);
            boolean usable =
                name != null
                    && lower.matches("[a-z_][a-z0-9_]*")
                    && (dialect == Dialect.PICODATA
                        || (dialect == Dialect.POSTGRESQL || dialect == Dialect.GREENPLUM)
                            && PG_INDEX_PARAMETERS.contains(lower));
            if (usable) {
              with.add(lower + " = " + literal(v));
            } else {
              ignored.add("options." + name + ": " + v);
            }
          }
        }
        case "timeout" -> timeout = seconds(value);
        default -> ignored.add(key + ": " + value);
      }
    }
    StringBuilder clauses = new StringBuilder();
    if (!with.isEmpty()) {
      clauses.append(" with (").append(String.join(", ", with)).append(')');
    }
    return finish(clauses, using, timeout, ignored, dialect);
  }

  /** Picodata takes the timeout in the statement; the others run it as the JDBC query timeout. */
  private static VendorDdl finish(
      StringBuilder clauses, String using, Duration timeout, List<String> ignored, Dialect d) {
    if (timeout != null && d == Dialect.PICODATA) {
      clauses
          .append(" option (timeout = ")
          .append(String.format(Locale.ROOT, "%.3f", timeout.toMillis() / 1000.0))
          .append(')');
      timeout = null;
    }
    return new VendorDdl(clauses.toString(), using, timeout, ignored);
  }

  private static List<String> names(Object value) {
    List<String> names = new ArrayList<>();
    for (Object o : value instanceof List<?> list ? list : List.of(value)) {
      names.add(String.valueOf(o));
    }
    return names;
  }

  private static String quoted(List<String> columns) {
    return String.join(", ", columns.stream().map(SchemaDdl::quote).toList());
  }

  private static String identifier(String name) {
    return '"' + name.replace("\"", "\"\"") + '"';
  }

  private static String literal(Object value) {
    if (value instanceof Boolean || value instanceof Number) {
      return String.valueOf(value);
    }
    return "'" + String.valueOf(value).replace("'", "''") + "'";
  }

  /** A timeout in seconds (3.0), or with a unit (3s, 500ms); null when it is neither. */
  private static Duration seconds(Object value) {
    if (value instanceof Number n) {
      return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
    }
    String text = String.valueOf(value).strip();
    try {
      if (text.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2).strip()));
      }
      if (text.endsWith("s")) {
        text = text.substring(0, text.length() - 1).strip();
      }
      return Duration.ofMillis(Math.round(Double.parseDouble(text) * 1000));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The keys ignored, as one line for {@code schema up}.
   *
   * @param what {@code table cars_q} or {@code index cars_brand_index}
   * @param dialect the target's dialect
   * @return the line, or empty when nothing was ignored
   */
  public String ignoredLine(String what, Dialect dialect) {
    if (ignored.isEmpty()) {
      return "";
    }
    return what
        + ": ignored by "
        + dialect.displayName()
        + ", which has no equivalent: "
        + String.join(", ", ignored);
  }
}
