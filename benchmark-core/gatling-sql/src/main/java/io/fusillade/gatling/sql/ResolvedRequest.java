package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlWork;
import io.gatling.core.session.Session;
import java.util.List;

/**
 * A request as one virtual user sends it: its name, its work and its checks.
 *
 * @param capture what an OK request saves in the session, or null when it saves nothing
 * @param firstValue the request's first bound value, for {@link
 *     SqlBalance#consistentHashOnFirstValue()}; null when it has none or it is not known
 */
record ResolvedRequest(
    String name,
    SqlWork work,
    List<SqlCheck> checks,
    SavedColumns.Capture capture,
    Object firstValue) {

  /** A request that saves nothing. */
  ResolvedRequest(String name, SqlWork work, List<SqlCheck> checks) {
    this(name, work, checks, null, null);
  }

  /** A request that saves what {@code capture} says. */
  ResolvedRequest(String name, SqlWork work, List<SqlCheck> checks, SavedColumns.Capture capture) {
    this(name, work, checks, capture, null);
  }

  /** The session an OK request hands on: with the values it saved. */
  Session saved(Session session) {
    return capture == null ? session : capture.save(session);
  }

  /** Turns a session into the request it sends; throws IllegalArgumentException when it can't. */
  @FunctionalInterface
  interface Resolver {
    /**
     * @param name the request's name, resolved for this session (a resolver that decides the name
     *     itself, as {@link SqlCallBuilder}'s, may ignore it)
     */
    ResolvedRequest resolve(Session session, String name);
  }
}
