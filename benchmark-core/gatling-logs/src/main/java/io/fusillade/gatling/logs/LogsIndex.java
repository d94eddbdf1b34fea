package io.fusillade.gatling.logs;

import io.fusillade.logs.IndexSpec;

/**
 * The index bulks and searches go to, and whether it is created before the load: part of {@link
 * LogsSettings}.
 *
 * @param create the index to create before the load (its name is {@code name}), or null
 * @param recreate whether {@code create} is deleted first
 */
record LogsIndex(String name, IndexSpec create, boolean recreate) {

  static final LogsIndex DEFAULT = new LogsIndex("logs", null, false);

  /** Another index name; an index to create stays as it was. */
  LogsIndex withName(String value) {
    return new LogsIndex(value, create, recreate);
  }

  /** Creates (with {@code recreate}, deletes and creates) {@code spec}, the index used. */
  static LogsIndex created(IndexSpec spec, boolean recreate) {
    return new LogsIndex(spec.name(), spec, recreate);
  }
}
