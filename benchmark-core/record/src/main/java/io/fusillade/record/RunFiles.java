package io.fusillade.record;

/**
 * The names of the files in a run directory. The format is documented in {@code
 * src/site/run-record.md}; readers must accept extra files and keys they do not know.
 */
public final class RunFiles {
  /** What ran: simulation, parameters, start, end, status, injector health. */
  public static final String MANIFEST = "run.json";

  /** HdrHistogram interval log, one-second intervals, one tag per request name and status. */
  public static final String HISTOGRAMS = "latency.hlog";

  /** One JSON object per second: requests sent/OK/KO, errors by reason, bytes, counters, gauges. */
  public static final String COUNTERS = "counters.jsonl";

  /**
   * Events beside the requests (a node down or up, a fault injected), one JSON object per line:
   * {@code epochMs}, {@code kind}, {@code target} and an optional {@code detail}. Absent when the
   * run had none. See {@link RunEvent}.
   */
  public static final String EVENTS = "events.jsonl";

  /** Version of the run-record format written by this code. */
  public static final int FORMAT_VERSION = 1;

  private RunFiles() {}
}
