package io.fusillade.gatling.check;

import io.gatling.core.session.Session;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The values a request's checks save ({@link Check#saveAs}), kept until the request's outcome is
 * known: they go to the session only when every check passed. A null value (a SQL {@code NULL}, a
 * JSON {@code null}) removes the attribute. Not thread-safe: one request's checks run on one
 * thread.
 */
public final class Saves {
  private final Map<String, Object> values = new LinkedHashMap<>();

  void put(String key, Object value) {
    values.put(key, value);
  }

  /** Whether nothing was saved. */
  public boolean isEmpty() {
    return values.isEmpty();
  }

  /** The session with the saved values set. */
  public Session applyTo(Session session) {
    Session saved = session;
    for (Map.Entry<String, Object> e : values.entrySet()) {
      saved = e.getValue() == null ? saved.remove(e.getKey()) : saved.set(e.getKey(), e.getValue());
    }
    return saved;
  }

  /** The values saved, by attribute (for tests and messages). */
  public Map<String, Object> values() {
    return Map.copyOf(
        values.entrySet().stream()
            .filter(e -> e.getValue() != null)
            .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
  }
}
