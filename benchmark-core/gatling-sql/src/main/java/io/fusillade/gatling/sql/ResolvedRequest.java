package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlWork;
import io.gatling.core.session.Session;
import java.util.List;

/**
 * A request as one virtual user sends it: its name, its work and its checks.
 *
 * @param capture the checks that save in the session what an OK request found, or null when none
 * @param firstValue the request's first bound value, for {@link
 *     SqlBalance#consistentHashOnFirstValue()}; null when it has none or it is not known
 * @param limits its own timeout and tries, over the protocol's
 */
record ResolvedRequest(
    String name,
    SqlWork work,
    List<SqlCheck> checks,
    SqlSessionChecks capture,
    Object firstValue,
    RequestLimits limits) {

  /** A request that saves nothing. */
  ResolvedRequest(String name, SqlWork work, List<SqlCheck> checks) {
    this(name, work, checks, null, null, RequestLimits.NONE);
  }

  /** A request that saves what {@code capture} says. */
  ResolvedRequest(String name, SqlWork work, List<SqlCheck> checks, SqlSessionChecks capture) {
    this(name, work, checks, capture, null, RequestLimits.NONE);
  }

  /** The same request with its own timeout and tries. */
  ResolvedRequest limited(RequestLimits value) {
    return value == RequestLimits.NONE
        ? this
        : new ResolvedRequest(name, work, checks, capture, firstValue, value);
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
