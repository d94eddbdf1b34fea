package io.fusillade.workload;

import io.fusillade.sql.SqlPlaceholders;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code ::type} casts of a workload's SQL, and the type names each SQL dialect Fusillade
 * targets knows, so that a cast the server lacks is found before a run instead of as a run of 100%
 * KO ({@code ERROR: type "string" does not exist}).
 *
 * <p>Picostress files are written for Picodata, whose SQL spells some types its own way ({@code
 * string}, {@code datetime}, {@code double}, {@code unsigned}). One of them has an exact equivalent
 * that every server speaking PostgreSQL's protocol accepts: Picodata's {@code string} is its {@code
 * text}, PostgreSQL's {@code text} (and CockroachDB's {@code STRING} is its {@code TEXT}). Such a
 * cast is sent as that equivalent ({@link #adapt}), said once on the console and by {@code workload
 * check}, so that a Picostress file runs as written. The others have no spelling both servers take
 * ({@code double precision}, {@code timestamptz} are not Picodata's): on a server known to be
 * PostgreSQL they are refused before the run with what to write instead.
 *
 * <p>Only {@code ::} casts are read (PostgreSQL's syntax, which Picodata shares); a quoted ({@code
 * ::"Mood"}) or schema-qualified ({@code ::app.mood}) type is a type of the user's own and never
 * judged. Literals, quoted identifiers, comments and dollar-quoted bodies are skipped.
 */
public final class SqlCasts {
  /**
   * One cast.
   *
   * @param at where its {@code ::} is in the SQL
   * @param start where its type starts in the SQL (after {@code ::} and any spaces)
   * @param end where its type ends (exclusive), modifiers and array brackets included
   * @param type the type's name, lower case, words separated by one space, without modifiers or
   *     array brackets: {@code character varying}, {@code string}
   * @param own whether it is quoted or schema-qualified: a type of the user's, never judged
   */
  public record Cast(int at, int start, int end, String type, boolean own) {}

  /** The servers whose type names are known. */
  public enum Server {
    /** PostgreSQL, and what shares its types (Greenplum, YugabyteDB). */
    POSTGRESQL("PostgreSQL"),
    /** Picodata, whose SQL Picostress files are written in. */
    PICODATA("Picodata");

    private final String displayName;

    Server(String displayName) {
      this.displayName = displayName;
    }

    /** Its name in messages. */
    public String displayName() {
      return displayName;
    }
  }

  /** PostgreSQL's built-in type names a cast can name, SQL-standard spellings included. */
  static final Set<String> POSTGRESQL =
      Set.of(
          "bigint",
          "int8",
          "bit",
          "varbit",
          "bit varying",
          "boolean",
          "bool",
          "box",
          "bytea",
          "char",
          "character",
          "character varying",
          "varchar",
          "bpchar",
          "cidr",
          "circle",
          "date",
          "double precision",
          "float8",
          "float4",
          "float",
          "real",
          "inet",
          "int",
          "integer",
          "int4",
          "int2",
          "smallint",
          "interval",
          "json",
          "jsonb",
          "jsonpath",
          "line",
          "lseg",
          "macaddr",
          "macaddr8",
          "money",
          "numeric",
          "decimal",
          "path",
          "pg_lsn",
          "point",
          "polygon",
          "text",
          "time",
          "timetz",
          "time with time zone",
          "time without time zone",
          "timestamp",
          "timestamptz",
          "timestamp with time zone",
          "timestamp without time zone",
          "tsquery",
          "tsvector",
          "uuid",
          "xml",
          "name",
          "oid",
          "regclass",
          "regtype",
          "regproc",
          "regprocedure",
          "regoper",
          "regoperator",
          "regconfig",
          "regdictionary",
          "regnamespace",
          "regrole",
          "regcollation",
          "xid",
          "xid8",
          "cid",
          "tid",
          "int4range",
          "int8range",
          "numrange",
          "tsrange",
          "tstzrange",
          "daterange",
          "refcursor",
          "record");

  /** Picodata's type names (its SQL reference: base types and their synonyms). */
  static final Set<String> PICODATA =
      Set.of(
          "boolean",
          "bool",
          "decimal",
          "numeric",
          "double",
          "integer",
          "int",
          "int2",
          "int4",
          "int8",
          "smallint",
          "bigint",
          "number",
          "scalar",
          "string",
          "text",
          "varchar",
          "unsigned",
          "uuid",
          "datetime",
          "json",
          "any",
          "map",
          "array");

  /**
   * Names with the same meaning on PostgreSQL, spelt in a way every server that speaks its protocol
   * accepts: sent instead, on such a server.
   */
  static final Map<String, String> SAME_TYPE = Map.of("string", "text");

  /** What to write on PostgreSQL for a Picodata name it lacks, best first. */
  static final Map<String, List<String>> ON_POSTGRESQL =
      Map.of(
          "double", List.of("double precision", "float8"),
          "datetime", List.of("timestamptz", "timestamp"),
          "unsigned", List.of("bigint", "numeric"),
          "number", List.of("numeric", "double precision"),
          "scalar", List.of("the parameter's own type"),
          "any", List.of("the parameter's own type"),
          "map", List.of("jsonb"),
          "array", List.of("an array type such as integer[]"));

  /** The words that start a type of several words, and what may follow them. */
  private static final Map<String, List<String>> SEVERAL_WORDS =
      Map.of(
          "double", List.of("precision"),
          "character", List.of("varying"),
          "bit", List.of("varying"),
          "timestamp", List.of("with time zone", "without time zone"),
          "time", List.of("with time zone", "without time zone"));

  private SqlCasts() {}

  /**
   * The casts of a statement.
   *
   * @param sql the statement as written
   * @return its {@code ::type} casts, in order
   */
  public static List<Cast> of(String sql) {
    List<Cast> casts = new ArrayList<>();
    int n = sql.length();
    int i = 0;
    while (i < n) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        i = SqlPlaceholders.skipQuoted(sql, i, c);
      } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? n : end + 1;
      } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? n : end + 2;
      } else if (c == '$' && i + 1 < n && !Character.isDigit(sql.charAt(i + 1))) {
        i = SqlPlaceholders.skipDollarQuoted(sql, i);
      } else if (c == ':' && i + 1 < n && sql.charAt(i + 1) == ':') {
        Cast cast = cast(sql, i);
        if (cast != null) {
          casts.add(cast);
          i = cast.end();
        } else {
          i += 2;
        }
      } else {
        i++;
      }
    }
    return casts;
  }

  /** The cast whose {@code ::} is at {@code at} (spaces after it skipped), or null. */
  private static Cast cast(String sql, int at) {
    int start = at + 2;
    while (start < sql.length() && Character.isWhitespace(sql.charAt(start))) {
      start++;
    }
    if (start < sql.length() && sql.charAt(start) == '"') {
      int end = SqlPlaceholders.skipQuoted(sql, start, '"');
      return new Cast(at, start, end, sql.substring(start, end), true);
    }
    int end = word(sql, start);
    if (end == start) {
      return null;
    }
    String type = sql.substring(start, end).toLowerCase(Locale.ROOT);
    if (end < sql.length() && sql.charAt(end) == '.') {
      int qualified = word(sql, end + 1);
      return new Cast(at, start, qualified, sql.substring(start, qualified), true);
    }
    for (String next : SEVERAL_WORDS.getOrDefault(type, List.of())) {
      int after = words(sql, end, next);
      if (after > 0) {
        type = type + " " + next;
        end = after;
        break;
      }
    }
    end = modifiers(sql, end);
    return new Cast(at, start, end, type, false);
  }

  /** The end of the identifier starting at {@code i} ({@code i} when there is none). */
  private static int word(String sql, int i) {
    int j = i;
    while (j < sql.length()
        && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')
        && !(j == i && Character.isDigit(sql.charAt(j)))) {
      j++;
    }
    return j;
  }

  /** Where {@code words} (separated by single spaces) end after {@code i} and spaces, or -1. */
  private static int words(String sql, int i, String words) {
    int j = i;
    for (String w : words.split(" ")) {
      int k = j;
      while (k < sql.length() && Character.isWhitespace(sql.charAt(k))) {
        k++;
      }
      if (k == j) {
        return -1; // words are separated by spaces
      }
      int end = word(sql, k);
      if (!sql.substring(k, end).equalsIgnoreCase(w)) {
        return -1;
      }
      j = end;
    }
    return j;
  }

  /** Past {@code (10)}, {@code (12, 2)} and {@code []} after a type name. */
  private static int modifiers(String sql, int end) {
    int j = end;
    if (j < sql.length() && sql.charAt(j) == '(') {
      int close = sql.indexOf(')', j);
      j = close < 0 ? j : close + 1;
    }
    while (j + 1 < sql.length() && sql.charAt(j) == '[' && sql.charAt(j + 1) == ']') {
      j += 2;
    }
    return j;
  }

  /**
   * Whether a server knows a type name.
   *
   * @param server the server
   * @param type a cast's {@link Cast#type()}
   */
  public static boolean knows(Server server, String type) {
    return (server == Server.POSTGRESQL ? POSTGRESQL : PICODATA).contains(type);
  }

  /** Whether some server Fusillade knows has this type. */
  public static boolean anyKnows(String type) {
    return POSTGRESQL.contains(type) || PICODATA.contains(type);
  }

  /**
   * The name to send instead on a server that speaks PostgreSQL's protocol, when the type has
   * another spelling there with the same meaning ({@code string}: {@code text}).
   *
   * @param type a cast's type
   * @return the name, or null when the type is sent as written
   */
  public static String sameType(String type) {
    return SAME_TYPE.get(type);
  }

  /**
   * What to write instead on a server: for another dialect's name, its counterparts; for a
   * misspelling, the closest name the server knows.
   *
   * @param server the server
   * @param type the type it lacks
   * @return the names, best first; empty when nothing is close
   */
  public static List<String> instead(Server server, String type) {
    if (server == Server.POSTGRESQL && ON_POSTGRESQL.containsKey(type)) {
      return ON_POSTGRESQL.get(type);
    }
    return closest(type, new ArrayList<>(server == Server.POSTGRESQL ? POSTGRESQL : PICODATA));
  }

  /**
   * The known name a misspelt one is closest to, when it is a likely typo: one edit for a name of
   * up to four letters, two for a longer one ({@code mood} is no {@code bool}; {@code integr} is
   * {@code integer}).
   */
  private static List<String> closest(String type, List<String> known) {
    known.sort(null); // a stable choice between names at the same distance
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String name : known) {
      int d = Suggestions.distance(type, name);
      if (d < bestDistance) {
        best = name;
        bestDistance = d;
      }
    }
    int allowed = type.length() <= 4 ? 1 : 2;
    return best != null && bestDistance <= allowed ? List.of(best) : List.of();
  }

  /**
   * The closest name any known server has, for a misspelling no server knows ({@code integr}).
   *
   * @param type the type
   * @return the closest name, with its server when only one has it; empty when none is close
   */
  public static List<String> closestAnywhere(String type) {
    List<String> all = new ArrayList<>(POSTGRESQL);
    PICODATA.stream().filter(t -> !POSTGRESQL.contains(t)).forEach(all::add);
    return closest(type, all);
  }

  /**
   * A statement with every cast that has a same-meaning spelling on PostgreSQL's protocol ({@link
   * #sameType}) written so: {@code $2::string} sent as {@code $2::text}.
   *
   * @param sql the statement as written
   * @return the statement to send to a server that speaks PostgreSQL's protocol
   */
  public static String adapt(String sql) {
    StringBuilder out = new StringBuilder(sql.length());
    int copied = 0;
    for (Cast cast : of(sql)) {
      String same = cast.own() ? null : sameType(cast.type());
      if (same != null) {
        int nameEnd = cast.start() + cast.type().length();
        out.append(sql, copied, cast.start()).append(same);
        copied = nameEnd;
      }
    }
    return out.append(sql, copied, sql.length()).toString();
  }

  /**
   * Where in the file a cast's type is: the query's {@code sql} value starts at {@code sqlStart};
   * the cast's text ({@code ::string}) is looked for from there, skipping as many occurrences as it
   * has before it in the SQL, so that the line and column are those of the very cast (in a plain,
   * quoted or block scalar alike). Falls back to {@code sqlStart}.
   *
   * @param fileText the workload file's text, or null when it is not at hand
   * @param sqlStart where the query's {@code sql} value starts
   * @param sql the SQL
   * @param cast the cast
   * @return the type's line and column in the file
   */
  public static Location locate(String fileText, Location sqlStart, String sql, Cast cast) {
    if (fileText == null || sqlStart == null) {
      return sqlStart;
    }
    String needle = sql.substring(cast.at(), cast.end());
    int before = 0;
    for (int k = sql.indexOf(needle); k >= 0 && k < cast.at(); k = sql.indexOf(needle, k + 1)) {
      before++;
    }
    int index = offset(fileText, sqlStart);
    if (index < 0) {
      return sqlStart;
    }
    int found = fileText.indexOf(needle, index);
    for (int k = 0; k < before && found >= 0; k++) {
      found = fileText.indexOf(needle, found + 1);
    }
    if (found < 0) {
      return sqlStart;
    }
    found += cast.start() - cast.at(); // the type's first letter, after :: and any spaces
    int line = 1;
    int lineStart = 0;
    for (int k = 0; k < found; k++) {
      if (fileText.charAt(k) == '\n') {
        line++;
        lineStart = k + 1;
      }
    }
    return new Location(sqlStart.file(), line, found - lineStart + 1);
  }

  /** The index in {@code text} of a line and column, or -1. */
  private static int offset(String text, Location at) {
    int line = 1;
    int i = 0;
    while (line < at.line() && i < text.length()) {
      if (text.charAt(i++) == '\n') {
        line++;
      }
    }
    int index = i + at.column() - 1;
    return line == at.line() && index <= text.length() ? index : -1;
  }
}
