package io.fusillade.gatling;

import io.gatling.javaapi.core.Session;
import java.util.Locale;
import java.util.function.Function;

/**
 * Request names as the protocols' DSLs take them, like Gatling's {@code http("name")}: a constant,
 * a Gatling EL string ({@code "#{kind} by id"}) or a function of the session. Each distinct name is
 * a separate line of the reports: keep them few.
 */
public final class RequestNames {
  private RequestNames() {}

  /**
   * A request name given as text: constant, or EL when it holds {@code #{}.
   *
   * @param protocol the protocol's name in messages ("SQL", "topic", "logs")
   * @throws IllegalArgumentException "a SQL request needs a name" when {@code name} is null or blank
   */
  public static Expression<String> of(String protocol, String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a " + protocol + " request needs a name");
    }
    return Expression.text(name);
  }

  /**
   * A request name computed from the session. A request whose name cannot be computed is reported
   * as "{@code <protocol> request not built}" (lower case: "sql request not built").
   */
  public static Expression<String> of(String protocol, Function<Session, String> name) {
    if (name == null) {
      throw new IllegalArgumentException("a " + protocol + " request needs a name");
    }
    return Expression.of(name)
        .describedAs(protocol.toLowerCase(Locale.ROOT) + " request not built");
  }
}
