package io.fusillade.gatling.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which step of its open injection profile each population is in, from the time since the run
 * opened: read from the run's {@code injection} parameter ({@link
 * io.fusillade.gatling.InjectionProfiles}). A population of a later phase ({@code andThen}) starts
 * when the longest population of the phase before it ends. Closed-model populations have no steps
 * and are left out. The run opens when its first protocol does, a moment before the first user
 * starts: the step is right to within that moment.
 */
final class InjectionSchedule {
  /** One population's position: its step (1-based, 0 once past the last) and target rate. */
  record Now(String scenario, int step, double targetRate) {}

  private record Step(double seconds, double from, double to) {}

  private record Population(String scenario, int phase, List<Step> steps) {
    double length() {
      return steps.stream().mapToDouble(Step::seconds).sum();
    }
  }

  private final List<Population> populations;
  private final Map<Integer, Double> phaseStarts = new TreeMap<>();

  private InjectionSchedule(List<Population> populations) {
    this.populations = populations;
    Map<Integer, Double> lengths = new TreeMap<>();
    for (Population p : populations) {
      lengths.merge(p.phase(), p.length(), Math::max);
    }
    double start = 0;
    for (Map.Entry<Integer, Double> phase : lengths.entrySet()) {
      phaseStarts.put(phase.getKey(), start);
      start += phase.getValue();
    }
  }

  /** No schedule: nothing is known about the steps. */
  static final InjectionSchedule NONE = new InjectionSchedule(List.of());

  /**
   * The schedule of a run's parameters ({@code injection}), or {@link #NONE} when they have none or
   * it cannot be read.
   */
  static InjectionSchedule of(Map<String, ?> parameters) {
    Object injection = parameters.get("injection");
    if (!(injection instanceof List<?> list)) {
      return NONE;
    }
    List<Population> populations = new ArrayList<>();
    for (Object item : list) {
      if (!(item instanceof Map<?, ?> population) || !(population.get("steps") instanceof List)) {
        continue;
      }
      List<Step> steps = new ArrayList<>();
      for (Object s : (List<?>) population.get("steps")) {
        if (s instanceof Map<?, ?> step) {
          steps.add(step(step));
        }
      }
      Object phase = population.get("phase");
      populations.add(
          new Population(
              String.valueOf(population.get("scenario")),
              phase instanceof Number n ? n.intValue() : 0,
              steps));
    }
    return new InjectionSchedule(populations);
  }

  private static Step step(Map<?, ?> step) {
    double seconds = number(step.get("seconds"), number(step.get("pauseSeconds"), 0));
    if (step.containsKey("rate")) {
      double rate = number(step.get("rate"), 0);
      return new Step(seconds, rate, rate);
    }
    if (step.containsKey("from")) {
      return new Step(seconds, number(step.get("from"), 0), number(step.get("to"), 0));
    }
    // users over a duration, users at once, a pause: no rate of their own
    double users = number(step.get("users"), 0);
    double rate = seconds > 0 ? users / seconds : 0;
    return new Step(seconds, rate, rate);
  }

  private static double number(Object value, double otherwise) {
    return value instanceof Number n ? n.doubleValue() : otherwise;
  }

  /** Every population's step at {@code elapsedSeconds} into the run. */
  List<Now> at(double elapsedSeconds) {
    List<Now> out = new ArrayList<>();
    for (Population p : populations) {
      double t = elapsedSeconds - phaseStarts.getOrDefault(p.phase(), 0.0);
      if (t < 0) {
        out.add(new Now(p.scenario(), 0, 0));
        continue;
      }
      Now now = new Now(p.scenario(), 0, 0);
      for (int i = 0; i < p.steps().size(); i++) {
        Step step = p.steps().get(i);
        if (t < step.seconds()) {
          double rate = step.from() + (step.to() - step.from()) * (t / step.seconds());
          now = new Now(p.scenario(), i + 1, rate);
          break;
        }
        t -= step.seconds();
      }
      out.add(now);
    }
    return out;
  }
}
