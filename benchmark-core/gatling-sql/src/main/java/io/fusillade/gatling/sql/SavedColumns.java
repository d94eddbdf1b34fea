package io.fusillade.gatling.sql;

import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlResult;
import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns a statement's checks save in the session ({@link SqlColumnCheck#saveAs}): by column,
 * the attribute each goes to.
 *
 * <p>The result of a request never leaves the SQL client, which hands back only its outcome; so
 * each request that saves gets one more check of its own, {@link Capture}, last in its list: it
 * runs only when every other check passed, keeps the first row, and is read when the outcome
 * arrives (on the thread that ran the checks, so no synchronisation is needed).
 */
final class SavedColumns {
  static final SavedColumns NONE = new SavedColumns(Map.of());

  private final Map<String, String> attributeByColumn;

  private SavedColumns(Map<String, String> attributeByColumn) {
    this.attributeByColumn = attributeByColumn;
  }

  /** What {@code checks} save, in their order. */
  static SavedColumns of(List<SqlCheck> checks) {
    Map<String, String> saves = new LinkedHashMap<>();
    for (SqlCheck check : checks) {
      if (check instanceof SqlColumnCheck column && column.savedAs() != null) {
        saves.put(column.column(), column.savedAs());
      }
    }
    return saves.isEmpty() ? NONE : new SavedColumns(Map.copyOf(saves));
  }

  boolean isEmpty() {
    return attributeByColumn.isEmpty();
  }

  /** A capture for one request, and its checks with the capture last. */
  Capture capture(List<SqlCheck> checks) {
    return new Capture(checks);
  }

  /** One request's first row, kept by its last check. */
  final class Capture implements SqlCheck {
    private final List<SqlCheck> checks;
    private Map<String, Object> row = Map.of();

    private Capture(List<SqlCheck> checks) {
      List<SqlCheck> all = new ArrayList<>(checks.size() + 1);
      all.addAll(checks);
      all.add(this);
      this.checks = all;
    }

    /** The request's checks, this capture last. */
    List<SqlCheck> checks() {
      return checks;
    }

    @Override
    public String verify(SqlResult result) {
      row = result.firstRow();
      return null;
    }

    /** The session with the saved columns set (a NULL value removes its attribute). */
    Session save(Session session) {
      Session saved = session;
      for (Map.Entry<String, String> e : attributeByColumn.entrySet()) {
        Object value = row.get(e.getKey());
        saved = value == null ? saved.remove(e.getValue()) : saved.set(e.getValue(), value);
      }
      return saved;
    }
  }
}
