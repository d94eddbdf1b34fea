package io.fusillade.gatling.logs;

import io.fusillade.logs.IndexSpec;
import io.gatling.javaapi.core.ActionBuilder;

/** A bulk that fails on purpose ({@link LogsFaults}), ready to run. Immutable. */
public final class LogsInjectedBuilder implements ActionBuilder {
  private final String kind;
  private final IndexSpec index;

  LogsInjectedBuilder(String kind, IndexSpec index) {
    LogsFaults.requireKind(kind); // an unknown kind fails where the user wrote it
    this.kind = kind;
    this.index = index;
  }

  /**
   * The same bulk, made for {@code index}'s mapping rather than the one the protocol creates: for a
   * protocol that does not create the index.
   *
   * @param index the index as it was created
   * @return a new builder
   *     <p>Example: {@code
   *     injected(LogsFaults.MAPPING_VIOLATION).forIndex(IndexSpec.preset("web-logs", "web-logs"))}.
   */
  public LogsInjectedBuilder forIndex(IndexSpec index) {
    return new LogsInjectedBuilder(kind, index);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    String k = kind;
    IndexSpec i = index;
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new InjectedBulkAction(k, i, components, next));
  }
}
