package io.fusillade.record;

import java.util.Map;

/**
 * One line of {@code counters.jsonl}: what happened in one flush interval (one second).
 *
 * @param epochMs the end of the interval
 * @param elapsedSeconds seconds from the start of the run to the end of the interval
 * @param requests per request name: sent, ok, ko, bytes and errors of this second
 * @param counters per counter: its increase in this second
 * @param gauges per gauge: its value at the end of this second
 */
public record SecondCounts(
    long epochMs,
    double elapsedSeconds,
    Map<String, RequestSecond> requests,
    Map<String, Long> counters,
    Map<String, Double> gauges) {

  /** One request name's counts in one second. */
  public record RequestSecond(long sent, long ok, long ko, long bytes, Map<String, Long> errors) {}
}
