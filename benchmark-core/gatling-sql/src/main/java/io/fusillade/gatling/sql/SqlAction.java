package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;

/**
 * Runs one SQL request for a virtual user without blocking Gatling's event loop: the work goes to
 * the chosen node's bounded executor (or the native client's event loop), and the user resumes when
 * it completes. The latency is measured from the moment this action was entered (or the arrival's
 * due time), so waiting for a thread or a connection is part of it, and so are the tries before the
 * last when a serialization failure or a deadlock is tried again.
 */
final class SqlAction extends FusilladeAction<SqlAction.Prepared> {
  private final ResolvedRequest.Resolver resolver;
  private final SqlComponents components;

  /** A request resolved for one session, and the node key it is balanced on. */
  record Prepared(ResolvedRequest request, long key) {}

  private SqlAction(
      Expression<String> name,
      ResolvedRequest.Resolver resolver,
      SqlComponents components,
      Action next) {
    super(name, components, next);
    this.resolver = resolver;
    this.components = components;
  }

  /**
   * The Gatling action builder of a request resolved per session by {@code resolver}, which names
   * it: one that cannot be built (a missing session attribute) is KO as "sql request not built".
   */
  static io.gatling.core.action.builder.ActionBuilder builder(ResolvedRequest.Resolver resolver) {
    return builder(Expression.constant("sql request not built"), resolver);
  }

  /**
   * The same, for a request named by {@code name} before it is built: one that cannot be built is
   * KO under its resolved name (or under the name's text when the name itself cannot be resolved).
   */
  static io.gatling.core.action.builder.ActionBuilder builder(
      Expression<String> name, ResolvedRequest.Resolver resolver) {
    return SqlProtocol.KEY.actionBuilder(
        (components, next) -> new SqlAction(name, resolver, components, next));
  }

  @Override
  protected Prepared resolve(Session session, String name) {
    ResolvedRequest request = resolver.resolve(session, name);
    return new Prepared(request, components.key(session, request));
  }

  /** The request's own name: a {@link SqlCallBuilder call} decides it with the rest. */
  @Override
  protected String reportedName(Prepared prepared, String name) {
    return prepared.request().name();
  }

  @Override
  protected void send(Exchange exchange, Prepared prepared) {
    ResolvedRequest request = prepared.request();
    components
        .cluster()
        .execute(
            prepared.key(),
            request.work(),
            request.checks(),
            request.limits().timeout(),
            components.tries(request.limits(), exchange.startNanos()),
            outcome -> {
              components.record(exchange.startNanos(), outcome);
              Session session = exchange.session();
              boolean ok = outcome.status() == Status.OK;
              exchange.end(
                  outcome.endNanos(),
                  outcome.status(),
                  outcome.reason(),
                  ok ? request.saved(session) : session);
            });
  }
}
