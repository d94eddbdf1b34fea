package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlWork;
import io.gatling.core.session.Session;
import java.util.List;

/** A request as one virtual user sends it: its name, its work and its checks. */
record ResolvedRequest(String name, SqlWork work, List<SqlCheck> checks) {

  /** Turns a session into the request it sends; throws IllegalArgumentException when it can't. */
  @FunctionalInterface
  interface Resolver {
    ResolvedRequest resolve(Session session);
  }

  /** Resolves each parameter against the session, in order. */
  static Object[] values(List<SqlParameter> parameters, Session session) {
    Object[] values = new Object[parameters.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = parameters.get(i).resolve(session);
    }
    return values;
  }
}
