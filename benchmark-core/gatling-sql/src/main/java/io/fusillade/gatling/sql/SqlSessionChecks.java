package io.fusillade.gatling.sql;

import io.fusillade.gatling.check.Checks;
import io.fusillade.gatling.check.Saves;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlResult;
import io.gatling.core.session.Session;
import java.util.Set;

/**
 * A statement's checks bound to the session of one request, as the SQL client runs them: the result
 * never leaves the client, which hands back only the outcome, so the checks run there (on the
 * client's thread) and keep what they save until the outcome says the request is OK.
 */
final class SqlSessionChecks implements SqlCheck {
  private final Checks<SqlResult> checks;
  private final Session session;
  private final Set<String> columns;
  private final Saves saves = new Saves();

  SqlSessionChecks(Checks<SqlResult> checks, Session session) {
    this(checks, checks.needs(), session);
  }

  /** With the columns the checks read, computed once per statement rather than per request. */
  SqlSessionChecks(Checks<SqlResult> checks, Set<String> columns, Session session) {
    this.checks = checks;
    this.columns = columns;
    this.session = session;
  }

  @Override
  public String verify(SqlResult result) {
    return checks.verify(result, session, saves);
  }

  @Override
  public Set<String> columns() {
    return columns;
  }

  /** The session an OK request hands on: with the values its checks saved. */
  Session save(Session session) {
    return saves.applyTo(session);
  }
}
