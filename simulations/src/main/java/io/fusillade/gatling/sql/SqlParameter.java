package io.fusillade.gatling.sql;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.function.Function;
import scala.Function1;

/** One statement parameter, resolved against the virtual user's session for each request. */
@FunctionalInterface
interface SqlParameter {

  /**
   * The value for this session.
   *
   * @throws IllegalArgumentException when it cannot be resolved (a missing attribute)
   */
  Object resolve(Session session);

  @SuppressWarnings("unchecked")
  static SqlParameter of(Object value) {
    if (value instanceof String text && text.contains("#{")) {
      Function1<Session, Validation<Object>> expression = Expressions.toAnyExpression(text);
      return session -> {
        Validation<Object> result = expression.apply(session);
        if ((Object) result instanceof Failure failure) {
          throw new IllegalArgumentException(failure.message());
        }
        return result.toOption().get();
      };
    }
    if (value instanceof Function<?, ?> function) {
      Function<io.gatling.javaapi.core.Session, Object> f =
          (Function<io.gatling.javaapi.core.Session, Object>) function;
      return session -> f.apply(new io.gatling.javaapi.core.Session(session));
    }
    return session -> value;
  }
}
