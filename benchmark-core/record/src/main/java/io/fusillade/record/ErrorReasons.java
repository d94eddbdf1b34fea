package io.fusillade.record;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts failures by reason, thread-safe, with a bounded number of distinct reasons.
 *
 * <p>Reasons come from servers and drivers and may embed ids or values; capping their number and
 * length keeps a misbehaving target from turning the run record into an unbounded map.
 */
final class ErrorReasons {
  static final int MAX_REASONS = 64;
  static final int MAX_REASON_LENGTH = 160;
  static final String OTHER = "(other reasons)";
  static final String UNKNOWN = "(no reason given)";

  private final ConcurrentHashMap<String, LongAdder> counts = new ConcurrentHashMap<>();

  void count(String reason) {
    String key = normalise(reason);
    LongAdder adder = counts.get(key);
    if (adder == null) {
      if (counts.size() >= MAX_REASONS) {
        key = OTHER;
      }
      adder = counts.computeIfAbsent(key, k -> new LongAdder());
    }
    adder.increment();
  }

  /** The running totals, in insertion order of the snapshot. */
  Map<String, Long> totals() {
    Map<String, Long> totals = new LinkedHashMap<>();
    counts.forEach((reason, adder) -> totals.put(reason, adder.sum()));
    return totals;
  }

  static String normalise(String reason) {
    if (reason == null || reason.isBlank()) {
      return UNKNOWN;
    }
    String oneLine = reason.strip().replaceAll("\\s+", " ");
    return oneLine.length() <= MAX_REASON_LENGTH
        ? oneLine
        : oneLine.substring(0, MAX_REASON_LENGTH - 1) + "…";
  }
}
