package io.fusillade.reports.runs;

import io.fusillade.record.RunRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Whether the records of a test run by several injectors ({@code fusillade run --injectors N
 * --injector-index I}) make the whole test: one record per index, 0 to N - 1, the same N, and
 * starts that line up. What disagrees becomes a flag of the merged run, so that a report of two
 * injectors out of three never passes for the test.
 */
final class InjectorAgreement {
  /** Starts further apart than this put the injectors' seconds out of line. */
  static final long START_SPREAD_MS = 1_000;

  /**
   * Clocks further apart than this (their offsets to the clock they share, {@code clockOffsetMs})
   * put a tenth of each second's counts in the wrong second.
   */
  static final double CLOCK_SPREAD_MS = 100;

  private InjectorAgreement() {}

  /**
   * @param records the injectors' records, as given to the report
   * @return the flags, none when they agree (or when none was one of several)
   */
  static List<String> flags(List<RunRecord> records) {
    List<String> flags = new ArrayList<>();
    Map<Integer, Integer> indexes = new TreeMap<>();
    TreeSet<Integer> counts = new TreeSet<>();
    for (RunRecord record : records) {
      Map<String, Object> p = record.manifest().parameters();
      if (p.get("injectors") instanceof Number n && p.get("injectorIndex") instanceof Number i) {
        counts.add(n.intValue());
        indexes.merge(i.intValue(), 1, Integer::sum);
      }
      if (p.get("startLatenessMs") instanceof Number late && late.longValue() > START_SPREAD_MS) {
        flags.add(
            "injector "
                + p.getOrDefault("injectorIndex", "")
                + " began its load "
                + late.longValue()
                + " ms after --start-at "
                + p.get("startAt"));
      }
    }
    if (!counts.isEmpty()) {
      if (counts.size() > 1) {
        flags.add("the records disagree on the number of injectors: " + counts);
      }
      int expected = counts.last();
      List<Integer> missing = new ArrayList<>();
      for (int i = 0; i < expected; i++) {
        if (!indexes.containsKey(i)) {
          missing.add(i);
        }
      }
      if (!missing.isEmpty()) {
        flags.add(
            "the test had "
                + expected
                + " injectors; the records of injector index "
                + missing
                + " are missing: the report is of part of the test");
      }
      indexes.forEach(
          (index, n) -> {
            if (n > 1) {
              flags.add("injector index " + index + " appears in " + n + " records");
            }
          });
    }
    clockFlag(records).ifPresent(flags::add);
    if (records.size() > 1) {
      long first = Long.MAX_VALUE;
      long last = Long.MIN_VALUE;
      for (RunRecord record : records) {
        first = Math.min(first, record.manifest().startEpochMs());
        last = Math.max(last, record.manifest().startEpochMs());
      }
      if (last - first > START_SPREAD_MS) {
        flags.add(
            "the injectors' records start "
                + (last - first)
                + " ms apart: their seconds do not line up (start them with --start-at)");
      }
    }
    return flags;
  }

  /** Injectors whose measured clocks disagree by more than {@link #CLOCK_SPREAD_MS}. */
  private static java.util.Optional<String> clockFlag(List<RunRecord> records) {
    Map<Object, Double> offsets = new TreeMap<>(java.util.Comparator.comparing(String::valueOf));
    String reference = "";
    for (RunRecord record : records) {
      Map<String, Object> p = record.manifest().parameters();
      if (p.get("clockOffsetMs") instanceof Number offset) {
        offsets.put(p.getOrDefault("injectorIndex", "?"), offset.doubleValue());
        reference = String.valueOf(p.getOrDefault("clockReference", ""));
      }
    }
    if (offsets.size() < 2) {
      return java.util.Optional.empty();
    }
    double min = java.util.Collections.min(offsets.values());
    double max = java.util.Collections.max(offsets.values());
    if (max - min <= CLOCK_SPREAD_MS) {
      return java.util.Optional.empty();
    }
    List<String> each = new ArrayList<>();
    offsets.forEach(
        (index, offset) ->
            each.add("injector " + index + " " + (offset >= 0 ? "+" : "") + round(offset) + " ms"));
    return java.util.Optional.of(
        "the injectors' clocks disagree by "
            + round(max - min)
            + " ms (their offsets to "
            + reference
            + ": "
            + String.join(", ", each)
            + "): their seconds do not line up; synchronise their clocks (NTP)");
  }

  private static String round(double ms) {
    return String.valueOf(Math.round(ms * 10) / 10.0);
  }
}
