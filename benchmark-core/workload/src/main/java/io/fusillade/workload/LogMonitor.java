package io.fusillade.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A {@code monitor} entry with {@code logs:}: a server's log file whose lines the run counts per
 * named pattern, as gauges {@code server.<name>.log.<pattern>} ({@code
 * io.fusillade.system.LogWatch}).
 *
 * <pre>{@code
 * monitor:
 *   - name: postgres
 *     logs: embedded                 # the embedded PostgreSQL's log; or a file path
 *     patterns:
 *       warning: "WARNING|could not send"
 * }</pre>
 *
 * @param name the source's name
 * @param file the log file as written, or {@value #EMBEDDED} for the log of the server the run
 *     starts
 * @param patterns the regular expressions by name, in order
 */
public record LogMonitor(String name, String file, Map<String, String> patterns) {
  /** The {@code logs:} value naming the embedded server's log. */
  public static final String EMBEDDED = "embedded";

  /** Keeps the patterns' order. */
  public LogMonitor {
    patterns = Collections.unmodifiableMap(new LinkedHashMap<>(patterns));
  }

  /** Whether the file is the embedded server's log, known once the server started. */
  public boolean embedded() {
    return EMBEDDED.equals(file);
  }
}
