package io.fusillade.workload;

import io.fusillade.workload.SqlCasts.Cast;
import io.fusillade.workload.SqlCasts.Server;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The casts of a workload's queries judged against the server they will be sent to ({@link
 * SqlCasts} holds the type names): {@code workload check} prints what it finds, a run refuses to
 * start on a problem and sends the queries {@link #adapt adapted}.
 *
 * <p>What each target gets:
 *
 * <ul>
 *   <li>a cast with a same-meaning spelling on PostgreSQL's protocol ({@code ::string}): a note
 *       that it is sent as {@code ::text}, on any server that speaks that protocol but Picodata
 *       (whose own name it is);
 *   <li>another dialect's name PostgreSQL lacks ({@code ::datetime}): a problem on a server known
 *       to be PostgreSQL (the embedded one, or one {@code --url} asked), with what to write
 *       instead; a note on a {@code jdbc:postgresql:} URL not asked, which may be Picodata;
 *   <li>a name no dialect has that is close to one ({@code ::integr}): a problem everywhere, found
 *       when the file is loaded ({@link #misspelt});
 *   <li>any other name no dialect has: a problem on the embedded server, which holds no type of the
 *       user's; elsewhere the server's own type, left to it.
 * </ul>
 */
public final class CastReview {
  /** The server a workload's queries go to, as far as it is known before connecting. */
  public enum Target {
    /** The embedded PostgreSQL {@code fusillade run} starts: PostgreSQL, with no type of yours. */
    EMBEDDED,
    /** A PostgreSQL (or Greenplum) server, asked by {@code --url}. */
    POSTGRESQL,
    /** A Picodata server, asked by {@code --url}. */
    PICODATA,
    /**
     * A {@code jdbc:postgresql:} URL not asked: PostgreSQL, Greenplum, Picodata, YugabyteDB... all
     * speak that protocol.
     */
    POSTGRES_PROTOCOL,
    /** Any other JDBC URL: casts are not judged. */
    OTHER;

    /**
     * The target of a run or a check: the embedded server without a URL, else by the first URL.
     *
     * @param urls the nodes' JDBC URLs ({@code --url}, else the workload's connection)
     * @return the target
     */
    public static Target of(List<String> urls) {
      if (urls.isEmpty()) {
        return EMBEDDED;
      }
      String url = urls.get(0).strip().toLowerCase(Locale.ROOT);
      return url.startsWith("jdbc:postgresql:") || url.startsWith("jdbc:pgsql:")
          ? POSTGRES_PROTOCOL
          : OTHER;
    }

    /** Whether the queries go over PostgreSQL's protocol, where {@code ::text} is understood. */
    boolean speaksPostgres() {
      return this != OTHER;
    }
  }

  /**
   * One thing found about a cast.
   *
   * @param location the type's line and column in the file
   * @param path the query's field, {@code queries[0].sql}
   * @param message what was found and what to do
   * @param problem true when the run must not start; false for a note
   */
  public record Finding(Location location, String path, String message, boolean problem) {
    /** As a problem of the file. */
    public Problem toProblem() {
      return new Problem(location, path, message);
    }

    /** {@code file:line:column path: message}, a note prefixed {@code note: }. */
    @Override
    public String toString() {
      return (problem ? "" : "note: ") + toProblem();
    }
  }

  private CastReview() {}

  /**
   * Judges every cast of the workload's queries for a target.
   *
   * @param workload a valid workload
   * @param target where its queries go
   * @param fileText the workload file's text, for the casts' exact lines and columns (null: the
   *     queries' own)
   * @return the findings, in file order
   */
  public static List<Finding> of(Workload workload, Target target, String fileText) {
    List<Finding> findings = new ArrayList<>();
    if (target == Target.OTHER) {
      return findings;
    }
    List<Query> queries = workload.queries();
    for (int q = 0; q < queries.size(); q++) {
      Query query = queries.get(q);
      for (Cast cast : SqlCasts.of(query.sql())) {
        if (cast.own()) {
          continue;
        }
        String message = judge(cast.type(), target);
        if (message == null) {
          continue;
        }
        findings.add(
            new Finding(
                SqlCasts.locate(fileText, query.location(), query.sql(), cast),
                "queries[" + q + "].sql",
                message.substring(1),
                message.charAt(0) == '!'));
      }
    }
    return findings;
  }

  /** What to say about a type for a target: "!" then a problem, "." then a note, or null. */
  private static String judge(String type, Target target) {
    String same = SqlCasts.sameType(type);
    if (same != null) {
      return target == Target.PICODATA
          ? null
          : ".::"
              + type
              + " is Picodata's name for text: sent as ::"
              + same
              + ", the same type on every server that speaks PostgreSQL's protocol";
    }
    if (target == Target.PICODATA || SqlCasts.knows(Server.POSTGRESQL, type)) {
      return null; // Picodata's server, asked, prepares every query itself
    }
    if (SqlCasts.knows(Server.PICODATA, type)) {
      String instead =
          "PostgreSQL has no type "
              + type
              + " (it is Picodata's): write "
              + String.join(" or ", SqlCasts.instead(Server.POSTGRESQL, type))
              + " for PostgreSQL";
      return target == Target.POSTGRES_PROTOCOL
          ? "."
              + instead
              + "; fine if the server is Picodata ('workload check --url URL' asks the"
              + " server)"
          : "!" + instead;
    }
    if (target == Target.EMBEDDED) {
      List<String> close = SqlCasts.instead(Server.POSTGRESQL, type);
      return "!PostgreSQL has no built-in type "
          + type
          + ", and the embedded server holds no type of yours"
          + (close.isEmpty() ? "" : "; did you mean " + String.join(" or ", close) + "?");
    }
    return null; // a type of the server's own schema: it judges
  }

  /**
   * The casts no server Fusillade knows has, misspelt from one it does ({@code ::integr}, {@code
   * ::strng}): problems of the file whatever the server. A quoted type ({@code ::"texts"}) is never
   * judged: that is how a type of your own whose name is close to a built-in one is written.
   *
   * @param queries the loaded queries
   * @param fileText its file's text
   * @return the problems, in file order
   */
  static List<Problem> misspelt(List<Query> queries, String fileText) {
    List<Problem> problems = new ArrayList<>();
    for (int q = 0; q < queries.size(); q++) {
      Query query = queries.get(q);
      for (Cast cast : SqlCasts.of(query.sql())) {
        if (cast.own() || SqlCasts.anyKnows(cast.type())) {
          continue;
        }
        List<String> close = SqlCasts.closestAnywhere(cast.type());
        if (close.isEmpty()) {
          continue;
        }
        problems.add(
            new Problem(
                SqlCasts.locate(fileText, query.location(), query.sql(), cast),
                "queries[" + q + "].sql",
                "no SQL type "
                    + cast.type()
                    + " in the cast ::"
                    + cast.type()
                    + "; did you mean "
                    + String.join(" or ", close)
                    + "? (a type of your own whose name is close to a built-in one: quote it,"
                    + " ::\""
                    + cast.type()
                    + "\")"));
      }
    }
    return problems;
  }

  /**
   * The workload as its queries must be sent to the target: each cast with a same-meaning spelling
   * on PostgreSQL's protocol written so ({@code $2::string} as {@code $2::text}), on every target
   * that speaks it but Picodata.
   *
   * @param workload the workload
   * @param target where its queries go
   * @return the workload to run (itself when nothing changes)
   */
  public static Workload adapt(Workload workload, Target target) {
    if (!target.speaksPostgres() || target == Target.PICODATA) {
      return workload;
    }
    List<Query> queries = new ArrayList<>();
    boolean changed = false;
    for (Query q : workload.queries()) {
      List<String> statements = q.statements().stream().map(SqlCasts::adapt).toList();
      changed |= !statements.equals(q.statements());
      queries.add(q.withStatements(statements));
    }
    return changed ? workload.withQueries(queries) : workload;
  }
}
