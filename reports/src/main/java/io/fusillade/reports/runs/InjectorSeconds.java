package io.fusillade.reports.runs;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One injector's intervals binned into the run's seconds: how many seconds of intervals ended in
 * each (a partial last interval covers less than one, a late flush puts two intervals in one), and
 * its counts there, so that a rate is its count over the real length it was counted in.
 */
final class InjectorSeconds {
  double[] covered = new double[0];
  final Map<String, long[]> completed = new LinkedHashMap<>();
  final Map<String, long[]> ko = new LinkedHashMap<>();
  final Map<String, long[]> counters = new LinkedHashMap<>();
  final Map<String, double[]> gaugeSums = new LinkedHashMap<>();
  final Map<String, long[]> gaugeCounts = new HashMap<>();

  void cover(int second, double length) {
    covered = Growable.sum(covered, second, Math.max(0, length));
  }

  void count(Map<String, long[]> into, String name, int second, long n) {
    into.put(name, Growable.add(into.getOrDefault(name, new long[0]), second, n));
  }

  /** Adds this injector's rates to the run's: injectors run side by side, their rates add. */
  void ratesInto(Map<String, long[]> counts, Map<String, double[]> rates) {
    counts.forEach(
        (name, n) -> {
          double[] rate = rates.getOrDefault(name, new double[0]);
          for (int i = 0; i < covered.length; i++) {
            if (covered[i] > 0) { // NaN (not yet covered) is false too
              rate = Growable.sum(rate, i, (i < n.length ? n[i] : 0) / covered[i]);
            }
          }
          rates.put(name, rate);
        });
  }
}
