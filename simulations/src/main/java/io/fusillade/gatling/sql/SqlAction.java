package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.ResponseReporter;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Runs one SQL request for a virtual user without blocking Gatling's event loop: the work goes to
 * the chosen node's bounded executor, and the user resumes when it completes. The latency is
 * measured from the moment this action was entered, so waiting for a thread or a connection is part
 * of it.
 */
final class SqlAction extends FusilladeAction {
  private final ResolvedRequest.Resolver resolver;
  private final SqlComponents components;
  private final Action next;
  private final Map<String, ResponseReporter> reporters = new ConcurrentHashMap<>();
  private final ResponseReporter unresolved;

  private SqlAction(
      String name,
      String requestName,
      ResolvedRequest.Resolver resolver,
      SqlComponents components,
      Action next) {
    super(name);
    this.resolver = resolver;
    this.components = components;
    this.next = next;
    this.unresolved = reporter(requestName);
  }

  /** The Gatling action builder of a request resolved per session by {@code resolver}. */
  static io.gatling.core.action.builder.ActionBuilder builder(ResolvedRequest.Resolver resolver) {
    return builder("sql request not built", resolver);
  }

  /**
   * The same, for a request whose name is known before it is built: a request that cannot be built
   * (a missing session attribute) is KO under that name.
   */
  static io.gatling.core.action.builder.ActionBuilder builder(
      String requestName, ResolvedRequest.Resolver resolver) {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        SqlComponents components = ctx.protocolComponentsRegistry().components(SqlProtocol.KEY);
        return new SqlAction("sql", requestName, resolver, components, next);
      }
    };
  }

  private ResponseReporter reporter(String requestName) {
    ResponseReporter reporter = reporters.get(requestName);
    return reporter != null
        ? reporter
        : reporters.computeIfAbsent(
            requestName,
            n -> new ResponseReporter(components.core(), components.recorder().request(n)));
  }

  @Override
  public void execute(Session session) {
    long entered = System.nanoTime();
    ResolvedRequest request;
    long key;
    try {
      request = resolver.resolve(session);
      key = components.key(session);
    } catch (RuntimeException e) {
      ResponseReporter.Start start = unresolved.start(entered);
      unresolved.crash(session, start, String.valueOf(e.getMessage()));
      next.$bang(session.markAsFailed());
      return;
    }
    ResponseReporter reporter = reporter(request.name());
    ResponseReporter.Start start = reporter.start(entered);
    components
        .cluster()
        .execute(
            key,
            request.work(),
            request.checks(),
            outcome -> {
              reporter.report(
                  session, start, outcome.endNanos(), outcome.status(), outcome.reason());
              components.recordNode(start.nanos(), outcome);
              // `!` hops back onto the user's event loop when called from a worker thread.
              next.$bang(outcome.status() == Status.OK ? session : session.markAsFailed());
            });
  }
}
