package io.fusillade.reports.runs;

import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import io.fusillade.reports.format.Numbers;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Named time ranges of a run that the report's time charts shade: the steps of its load. A band is
 * any named range, so other sources (fault injections, for one) can add theirs with their own
 * {@link Kind}.
 *
 * <p>The steps of a limit search are its own ({@code limit.steps}: each step's times, rate and
 * verdict). Other steps are read from {@code run.json}'s parameters: {@code injection} (the
 * injection profile: each population's steps, populations of a later {@code andThen} phase after
 * the longest of the earlier one) or, without it, {@code rates} and {@code stepSeconds} (stairs).
 * Only a profile of two steps or more gives bands: one band over the whole run says nothing.
 *
 * <p>The profile's clock starts when Gatling starts injecting, which the record does not hold: the
 * bands start at the beginning of the first interval in which any request was sent (a leading
 * {@code pauseSeconds} step before it). With one interval per second they may start up to a second
 * early.
 */
public final class TimeBands {
  private TimeBands() {}

  /** The narrowest band of a scheduled fault, seconds. */
  static final double MIN_FAULT_SECONDS = 0.5;

  /** What a band shows. */
  public enum Kind {
    /** A step of the load: shaded light grey, every other one. */
    STEP,
    /** A fault injected into the system under test: shaded light red. */
    FAULT,
    /**
     * The time requests injected to fail were sent, when it is not the whole run: shaded light
     * orange.
     */
    INJECTED
  }

  /** The label of the {@link Kind#INJECTED} band. */
  public static final String INJECTED_LABEL = "injected";

  /**
   * One named time range.
   *
   * @param label its name, drawn at the top of the band when it fits
   * @param fromSeconds its start, seconds from the run's start
   * @param toSeconds its end
   * @param kind what it shows
   */
  public record Band(String label, double fromSeconds, double toSeconds, Kind kind) {}

  /**
   * Every band of a run the time charts shade: its {@link #steps}, its {@link #faults} and its
   * injected requests.
   *
   * @param run the run
   * @return the steps, then the injection of requests that fail on purpose ({@link
   *     InjectionPeriods}) when it leaves a part of the run out (a band over the whole run says
   *     nothing), then the nodes' outages, then the scheduled faults ({@link FaultWindows}): drawn
   *     in that order, so that a fault shows over the injection
   */
  public static List<Band> of(RunData run) {
    List<Band> bands = new ArrayList<>(steps(run));
    List<InjectionPeriods> periods = InjectionPeriods.of(run);
    if (InjectionPeriods.windowed(periods)) {
      InjectionPeriods.during(periods)
          .ifPresent(
              d ->
                  bands.add(
                      new Band(INJECTED_LABEL, d.fromSeconds(), d.toSeconds(), Kind.INJECTED)));
    }
    bands.addAll(faults(run.events(), run.startEpochMs(), run.durationSeconds()));
    for (FaultWindows fault : FaultWindows.of(run)) {
      // an instant fault (a kill, a short command) still gets a band one can see
      double to = Math.max(fault.toSeconds(), fault.fromSeconds() + MIN_FAULT_SECONDS);
      bands.add(new Band(fault.label(), fault.fromSeconds(), to, Kind.FAULT));
    }
    return List.copyOf(bands);
  }

  /**
   * The time each node was down, from its {@link RunEvent#NODE_DOWN} to its next {@link
   * RunEvent#NODE_UP} (or the end of the run when it never came back), labelled "{@code <node>
   * down}", and stalled, from its {@link RunEvent#NODE_STALLED} to its {@link
   * RunEvent#NODE_ANSWERING}, labelled "{@code <node> stalled}". Overlapping outages of one node,
   * as several injectors record them, are merged into one band.
   *
   * @param events the run's events, in time order
   * @param startEpochMs the run's start
   * @param endSeconds the run's end, seconds from its start
   * @return one band per outage, in time order
   */
  public static List<Band> faults(List<RunEvent> events, long startEpochMs, double endSeconds) {
    Map<String, List<double[]>> outages = new TreeMap<>();
    Map<String, Double> openSince = new TreeMap<>();
    for (RunEvent event : events) {
      double at = event.secondsFrom(startEpochMs);
      String label =
          switch (event.kind()) {
            case RunEvent.NODE_DOWN, RunEvent.NODE_UP -> event.target() + " down";
            case RunEvent.NODE_STALLED, RunEvent.NODE_ANSWERING -> event.target() + " stalled";
            default -> null;
          };
      if (label == null) {
        continue;
      }
      boolean begins =
          RunEvent.NODE_DOWN.equals(event.kind()) || RunEvent.NODE_STALLED.equals(event.kind());
      if (begins) {
        openSince.putIfAbsent(label, at);
      } else if (openSince.containsKey(label)) {
        add(outages, label, openSince.remove(label), at);
      }
    }
    openSince.forEach((node, from) -> add(outages, node, from, Math.max(from, endSeconds)));
    List<Band> bands = new ArrayList<>();
    outages.forEach(
        (node, ranges) -> {
          ranges.sort(java.util.Comparator.comparingDouble(r -> r[0]));
          double[] current = null;
          for (double[] range : ranges) {
            if (current != null && range[0] <= current[1]) {
              current[1] = Math.max(current[1], range[1]);
              continue;
            }
            if (current != null) {
              bands.add(new Band(node, current[0], current[1], Kind.FAULT));
            }
            current = range.clone();
          }
          if (current != null) {
            bands.add(new Band(node, current[0], current[1], Kind.FAULT));
          }
        });
    bands.sort(java.util.Comparator.comparingDouble(Band::fromSeconds));
    return List.copyOf(bands);
  }

  private static void add(
      Map<String, List<double[]>> outages, String node, double from, double to) {
    outages.computeIfAbsent(node, k -> new ArrayList<>()).add(new double[] {from, to});
  }

  /**
   * The load steps of a run, from its first injector's parameters.
   *
   * @param run the run
   * @return the bands in time order, empty when fewer than two steps are known
   */
  public static List<Band> steps(RunData run) {
    // A limit search's steps have their own times: the rates were chosen as the run went.
    List<Band> limit =
        LimitResults.of(run).map(r -> r.steps()).orElse(List.of()).stream()
            .map(
                s ->
                    new Band(
                        compact(s.target()) + "/s" + (s.passed() ? " ✓" : " ✗"),
                        s.fromSeconds(),
                        s.toSeconds(),
                        Kind.STEP))
            .toList();
    if (!limit.isEmpty()) {
      return limit;
    }
    return steps(run.manifest().parameters(), injectionStart(run));
  }

  /**
   * The load steps described by {@code parameters}, starting at {@code start}.
   *
   * @param parameters {@code run.json}'s parameters
   * @param start where injection began, seconds from the run's start
   * @return the bands in time order, empty when fewer than two steps are known
   */
  public static List<Band> steps(Map<String, Object> parameters, double start) {
    List<Band> bands = new ArrayList<>();
    if (parameters.get("injection") instanceof List<?> populations && !populations.isEmpty()) {
      fromInjection(populations, start, bands);
    } else if (parameters.get("rates") instanceof List<?> rates
        && number(parameters.get("stepSeconds")) > 0) {
      double each = number(parameters.get("stepSeconds"));
      double t = start;
      for (Object rate : rates) {
        bands.add(new Band(compact(number(rate)) + "/s", t, t + each, Kind.STEP));
        t += each;
      }
    }
    return bands.size() < 2 ? List.of() : List.copyOf(bands);
  }

  /**
   * Phases in order; in each, the population with the most timed steps gives the bands (the others
   * run beside it), and the longest population gives the phase's length.
   */
  private static void fromInjection(List<?> populations, double start, List<Band> bands) {
    Map<Integer, List<Map<?, ?>>> phases = new TreeMap<>();
    for (Object p : populations) {
      if (p instanceof Map<?, ?> population) {
        int phase = (int) Math.max(0, number(population.get("phase")));
        phases.computeIfAbsent(phase, k -> new ArrayList<>()).add(population);
      }
    }
    double phaseStart = start;
    boolean first = true;
    for (List<Map<?, ?>> phase : phases.values()) {
      Map<?, ?> chosen = null;
      int most = 0;
      double length = 0;
      for (Map<?, ?> population : phase) {
        List<?> steps = population.get("steps") instanceof List<?> l ? l : List.of();
        int timed = 0;
        double total = 0;
        for (Object step : steps) {
          double seconds = seconds(step);
          if (seconds > 0) {
            timed++;
            total += seconds;
          }
        }
        length = Math.max(length, total);
        if (timed > most) {
          most = timed;
          chosen = population;
        }
      }
      if (chosen == null) {
        continue;
      }
      List<?> steps = (List<?>) chosen.get("steps");
      if (first && !steps.isEmpty() && steps.get(0) instanceof Map<?, ?> lead) {
        // The first send came after a leading pause: the profile began that much earlier.
        phaseStart = Math.max(0, phaseStart - number(lead.get("pauseSeconds")));
      }
      first = false;
      double t = phaseStart;
      for (Object step : steps) {
        double seconds = seconds(step);
        if (seconds > 0) {
          bands.add(new Band(label((Map<?, ?>) step), t, t + seconds, Kind.STEP));
          t += seconds;
        }
      }
      phaseStart += length;
    }
  }

  private static double seconds(Object step) {
    if (step instanceof Map<?, ?> m) {
      return Math.max(number(m.get("seconds")), number(m.get("pauseSeconds")));
    }
    return 0;
  }

  private static String label(Map<?, ?> step) {
    if (step.containsKey("pauseSeconds")) {
      return "pause";
    }
    if (step.containsKey("rate")) {
      return compact(number(step.get("rate"))) + "/s";
    }
    if (step.containsKey("from") && step.containsKey("to")) {
      return compact(number(step.get("from"))) + "→" + compact(number(step.get("to"))) + "/s";
    }
    if (step.containsKey("users")) {
      return "ramp " + compact(number(step.get("users"))) + " users";
    }
    return "step";
  }

  /** 200 as "200", 2.5 as "2.50": whole numbers without decimals. */
  static String compact(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? String.format(Locale.ROOT, "%d", (long) value)
        : Numbers.number(value);
  }

  private static double number(Object value) {
    if (value instanceof Number n) {
      return n.doubleValue();
    }
    if (value instanceof String s) {
      try {
        return Double.parseDouble(s.trim());
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    return 0;
  }

  /**
   * Where injection began, seconds from the run's start: the start of the earliest interval of any
   * injector in which a request was sent; 0 when none was.
   */
  static double injectionStart(RunData run) {
    double earliest = Double.POSITIVE_INFINITY;
    for (RunRecord record : run.injectors()) {
      long previous = record.manifest().startEpochMs();
      for (SecondCounts s : record.seconds()) {
        boolean sent = s.requests().values().stream().anyMatch(r -> r.sent() > 0);
        if (sent) {
          earliest = Math.min(earliest, (previous - run.startEpochMs()) / 1000.0);
          break;
        }
        previous = s.epochMs();
      }
    }
    return Double.isFinite(earliest) ? Math.max(0, earliest) : 0;
  }
}
