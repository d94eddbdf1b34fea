package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.gatling.javaapi.core.ActionBuilder;

/** A bulk request ready to run. Immutable: it wraps one {@link Bulk}. */
public final class LogsBulkBuilder implements ActionBuilder {
  private final Bulk bulk;

  /** A bulk as configured: its request name and how many documents it sends. */
  record Bulk(Expression<String> name, int documents) {
    Bulk {
      if (documents < 1) {
        throw new IllegalArgumentException("a bulk needs at least one document, got " + documents);
      }
    }
  }

  LogsBulkBuilder(Bulk bulk) {
    this.bulk = bulk;
  }

  /** What this builder holds (for tests). */
  Bulk bulk() {
    return bulk;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    Bulk b = bulk;
    return LogsProtocol.KEY.actionBuilder(
        (components, next) -> new BulkAction(b.name(), b.documents(), components, next));
  }
}
