package io.fusillade.gatling.logs;

import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;

/** A bulk request ready to run. Immutable. */
public final class LogsBulkBuilder implements ActionBuilder {
  private final String name;
  private final int documents;

  LogsBulkBuilder(String name, int documents) {
    if (documents < 1) {
      throw new IllegalArgumentException("a bulk needs at least one document, got " + documents);
    }
    this.name = name;
    this.documents = documents;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        LogsComponents components = ctx.protocolComponentsRegistry().components(LogsProtocol.KEY);
        return new BulkAction(name, documents, components, next);
      }
    };
  }
}
