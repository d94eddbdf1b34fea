package io.fusillade.reports.runs;

import io.fusillade.record.RunEvent;
import java.util.List;
import java.util.Locale;

/**
 * The events of a run as its reports list them ({@code events.jsonl}: a node down, a node up...):
 * the time since the run's start, the kind, the target (a node's {@code host:port}) and the detail,
 * the same in the HTML report, {@code summary.json} and {@code fusillade summary}.
 *
 * @param atSeconds seconds from the run's start (the earliest injector's)
 * @param kind e.g. {@value RunEvent#NODE_DOWN}
 * @param target e.g. {@code 127.0.0.1:5432}
 * @param detail e.g. "connection refused: 127.0.0.1:5432", or empty
 */
public record EventRows(double atSeconds, String kind, String target, String detail) {

  /** The most events a report lists; a run with more says how many it left out. */
  public static final int MAX_SHOWN = 200;

  /**
   * The run's events in time order.
   *
   * @param run the run
   * @return one row per event, all of them
   */
  public static List<EventRows> of(RunData run) {
    long start = run.startEpochMs();
    return run.events().stream()
        .map(e -> new EventRows(e.secondsFrom(start), e.kind(), e.target(), e.detail()))
        .toList();
  }

  /** The time as the reports print it: {@code +11.0 s}. */
  public String at() {
    return String.format(Locale.ROOT, "%+.1f s", atSeconds);
  }
}
