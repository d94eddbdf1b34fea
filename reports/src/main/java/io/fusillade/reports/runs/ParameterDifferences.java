package io.fusillade.reports.runs;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What was set differently for the baseline and the candidate: the {@code run.json} parameters (the
 * load, the seed, and the server's version and changed settings that the protocols record, such as
 * {@code sql.server.settings.shared_buffers}) whose value is the same in every baseline run and the
 * same in every candidate run, but not the same on both sides. A parameter that varies within one
 * side describes the runs, not the two configurations, and is left out.
 */
public final class ParameterDifferences {
  private static final String ABSENT = "(absent)";

  private ParameterDifferences() {}

  /**
   * The differences, one line each, sorted by parameter: {@code sql.server.settings.work_mem:
   * 4096kB → 65536kB}.
   */
  public static List<String> between(List<RunData> baseline, List<RunData> candidate) {
    List<Map<String, String>> b =
        baseline.stream().map(r -> flat(r.manifest().parameters())).toList();
    List<Map<String, String>> c =
        candidate.stream().map(r -> flat(r.manifest().parameters())).toList();
    Set<String> names = new TreeSet<>();
    b.forEach(m -> names.addAll(m.keySet()));
    c.forEach(m -> names.addAll(m.keySet()));
    List<String> lines = new ArrayList<>();
    for (String name : names) {
      String before = single(b, name);
      String after = single(c, name);
      if (before != null && after != null && !before.equals(after)) {
        lines.add(name + ": " + before + " → " + after);
      }
    }
    return lines;
  }

  /** The value every run of a side has, or null when they differ. */
  private static String single(List<Map<String, String>> runs, String name) {
    Set<String> values = new LinkedHashSet<>();
    runs.forEach(run -> values.add(run.getOrDefault(name, ABSENT)));
    return values.size() == 1 ? values.iterator().next() : null;
  }

  /** Nested maps as dotted names; lists and scalars as their text. */
  static Map<String, String> flat(Map<String, ?> parameters) {
    Map<String, String> out = new TreeMap<>();
    flatten("", parameters, out);
    return out;
  }

  private static void flatten(String prefix, Map<?, ?> map, Map<String, String> out) {
    map.forEach(
        (key, value) -> {
          String name = prefix + key;
          if (value instanceof Map<?, ?> nested) {
            flatten(name + ".", nested, out);
          } else {
            out.put(name, String.valueOf(value));
          }
        });
  }
}
