package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.List;

/** The typed ways of giving statement parameters, shared by statements and transactions. */
final class SqlParams {
  private SqlParams() {}

  /** Gatling EL strings, each resolved to the attribute's own value (or a constant text). */
  static List<Expression<?>> el(String... expressions) {
    List<Expression<?>> list = new ArrayList<>(expressions.length);
    for (String expression : expressions) {
      list.add(Expression.el(expression));
    }
    return list;
  }

  /** Resolves each parameter against the session, in order. */
  static Object[] values(List<Expression<?>> parameters, Session session) {
    Object[] values = new Object[parameters.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = parameters.get(i).resolve(session);
    }
    return values;
  }
}
