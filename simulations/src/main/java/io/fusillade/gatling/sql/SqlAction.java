package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeAction;
import io.fusillade.gatling.ResponseReporter;
import io.fusillade.record.Status;
import io.fusillade.sql.SqlClient;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.List;

/**
 * Runs one SQL statement for a virtual user without blocking Gatling's event loop: the statement
 * goes to the protocol's bounded executor, and the user resumes when it completes. The latency is
 * measured from the moment this action was entered, so waiting for a thread or a connection is part
 * of it.
 */
final class SqlAction extends FusilladeAction {
  private final String sql;
  private final SqlParameter[] parameters;
  private final SqlClient client;
  private final ResponseReporter reporter;
  private final Action next;

  SqlAction(
      String name,
      String sql,
      List<SqlParameter> parameters,
      SqlComponents components,
      Action next) {
    super(name);
    this.sql = sql;
    this.parameters = parameters.toArray(new SqlParameter[0]);
    this.client = components.client();
    this.reporter = new ResponseReporter(components.core(), components.recorder().request(name));
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    ResponseReporter.Start start = reporter.start();
    Object[] values = new Object[parameters.length];
    try {
      for (int i = 0; i < parameters.length; i++) {
        values[i] = parameters[i].resolve(session);
      }
    } catch (IllegalArgumentException e) {
      reporter.crash(session, start, e.getMessage());
      next.$bang(session.markAsFailed());
      return;
    }
    client.execute(
        sql,
        values,
        outcome -> {
          reporter.report(session, start, outcome.endNanos(), outcome.status(), outcome.reason());
          // `!` hops back onto the user's event loop when called from a worker thread.
          next.$bang(outcome.status() == Status.OK ? session : session.markAsFailed());
        });
  }
}
