package io.fusillade.record;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code run.json} side of {@link RunSettings}: the runner writes a run's settings as {@code
 * parameters} with {@link #of}, the reports read them back with {@link #settings}, in the spellings
 * of this version and, for reading, of older ones ({@code targetRate}, an ISO {@code duration} or
 * {@code stepDuration}).
 */
public final class RunParameters {
  /** The parameter of the target rate. */
  public static final String RATE = "rate";

  /** The spelling of the target rate in records of older versions, read still. */
  public static final String LEGACY_RATE = "targetRate";

  private RunParameters() {}

  /**
   * The {@code run.json} parameters of the settings that are set: mode, rate, duration, spike,
   * steps, stages, users, seed and workload (the checks are recorded apart, as the run declares
   * them). Rates and durations are numbers (a whole rate as an integer, durations in seconds).
   * Targets are not among them (URLs may hold passwords): runners record the masked {@code target};
   * nor are the SQL options, which the protocol records as it uses them.
   */
  public static Map<String, Object> of(RunSettings settings) {
    Map<String, Object> p = new LinkedHashMap<>();
    put(p, "mode", settings.mode() == null ? null : settings.mode().label());
    put(p, RATE, settings.rate() == null ? null : number(settings.rate()));
    put(p, "durationSeconds", settings.duration() == null ? null : seconds(settings.duration()));
    if (settings.spike() != null) {
      p.put("peak", number(settings.spike().peak()));
      p.put("riseSeconds", seconds(settings.spike().rise()));
      p.put("holdSeconds", seconds(settings.spike().hold()));
      p.put("fallSeconds", seconds(settings.spike().fall()));
    }
    if (settings.steps() != null) {
      p.put("rates", settings.steps().rates().stream().map(RunParameters::number).toList());
      p.put("stepSeconds", seconds(settings.steps().each()));
    }
    if (!settings.stages().isEmpty()) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (RunSettings.Stage stage : settings.stages()) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("from", number(stage.from()));
        one.put("to", number(stage.to()));
        one.put("seconds", seconds(stage.duration()));
        list.add(one);
      }
      p.put("stages", list);
    }
    put(p, "users", settings.users());
    put(p, "seed", settings.seed());
    put(p, "workload", settings.workload() == null ? null : settings.workload().toString());
    return p;
  }

  /**
   * The settings a {@code run.json} records, also in the spellings of older versions ({@code
   * targetRate}, an ISO {@code duration} or {@code stepDuration}). What is missing, or not of the
   * expected type, is unset.
   *
   * @param parameters the {@code parameters} object of {@code run.json}
   */
  public static RunSettings settings(Map<String, ?> parameters) {
    String rateName = rateParameter(parameters);
    Duration duration = secondsOf(parameters.get("durationSeconds"));
    if (duration == null) {
      duration = isoDuration(parameters.get("duration"));
    }
    RunSettings.Spike spike = null;
    if (parameters.get("peak") instanceof Number peak && peak.doubleValue() > 0) {
      spike =
          new RunSettings.Spike(
              peak.doubleValue(),
              secondsOf(parameters.get("riseSeconds")),
              secondsOf(parameters.get("holdSeconds")),
              secondsOf(parameters.get("fallSeconds")));
    }
    RunSettings.Steps steps = null;
    if (parameters.get("rates") instanceof List<?> list) {
      Duration each = secondsOf(parameters.get("stepSeconds"));
      if (each == null) {
        each = isoDuration(parameters.get("stepDuration"));
      }
      List<Double> rates = new ArrayList<>();
      for (Object o : list) {
        if (o instanceof Number n) {
          rates.add(n.doubleValue());
        }
      }
      if (each != null && rates.size() == list.size()) {
        steps = new RunSettings.Steps(rates, each);
      }
    }
    return new RunSettings(
        parameters.get("mode") instanceof String m ? RunSettings.Mode.of(m) : null,
        rateName != null ? ((Number) parameters.get(rateName)).doubleValue() : null,
        duration,
        spike,
        steps,
        parameters.get("users") instanceof Number n ? n.intValue() : null,
        parameters.get("seed") instanceof Number n ? n.longValue() : null,
        parameters.get("workload") instanceof String w && looksLikeFile(w) ? Path.of(w) : null,
        List.of(),
        null,
        null,
        null,
        null,
        null,
        false,
        stagesOf(parameters.get("stages")),
        List.of());
  }

  /** The stages of {@code run.json}; empty when missing or malformed. */
  private static List<RunSettings.Stage> stagesOf(Object value) {
    List<RunSettings.Stage> stages = new ArrayList<>();
    if (value instanceof List<?> list) {
      for (Object o : list) {
        Duration d = o instanceof Map<?, ?> m ? secondsOf(m.get("seconds")) : null;
        if (o instanceof Map<?, ?> m
            && m.get("from") instanceof Number from
            && m.get("to") instanceof Number to
            && d != null
            && d.toMillis() > 0
            && from.doubleValue() >= 0
            && to.doubleValue() >= 0) {
          stages.add(new RunSettings.Stage(from.doubleValue(), to.doubleValue(), d));
        } else {
          return List.of();
        }
      }
    }
    return stages;
  }

  /**
   * The name of the {@code run.json} parameter that holds the target rate: {@code targetRate} in a
   * record of an older version that wrote it, else {@code rate}; null when neither is a number.
   */
  public static String rateParameter(Map<String, ?> parameters) {
    if (parameters.get(LEGACY_RATE) instanceof Number) {
      return LEGACY_RATE;
    }
    return parameters.get(RATE) instanceof Number ? RATE : null;
  }

  /** A rate as {@code run.json} holds it: a whole number as an integer (200, not 200.0). */
  public static Number number(double value) {
    if (value == Math.rint(value) && Math.abs(value) < Integer.MAX_VALUE) {
      return (int) value;
    }
    return value;
  }

  private static Number seconds(Duration d) {
    long millis = d.toMillis();
    return millis % 1000 == 0 ? (Number) (millis / 1000) : (Number) (millis / 1000.0);
  }

  private static Duration secondsOf(Object value) {
    return value instanceof Number n ? Duration.ofMillis(Math.round(n.doubleValue() * 1000)) : null;
  }

  private static Duration isoDuration(Object value) {
    if (value instanceof String s) {
      try {
        return SettingValues.parseDuration(s);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return null;
  }

  /** Topic runs of older versions wrote the workload's name under {@code workload}. */
  private static boolean looksLikeFile(String value) {
    return value.endsWith(".yml") || value.endsWith(".yaml");
  }

  private static void put(Map<String, Object> map, String name, Object value) {
    if (value != null) {
      map.put(name, value);
    }
  }
}
