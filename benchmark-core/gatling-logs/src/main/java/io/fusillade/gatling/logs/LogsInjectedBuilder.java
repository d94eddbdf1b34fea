package io.fusillade.gatling.logs;

import io.gatling.javaapi.core.ActionBuilder;

/** A bulk that fails on purpose ({@link LogsFaults}), ready to run. Immutable. */
public final class LogsInjectedBuilder implements ActionBuilder {
  private final String kind;

  LogsInjectedBuilder(String kind) {
    LogsFaults.requireKind(kind); // an unknown kind fails where the user wrote it
    this.kind = kind;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    String k = kind;
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new InjectedBulkAction(k, components, next));
  }
}
