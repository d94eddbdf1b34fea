package io.fusillade.gatling;

import io.fusillade.record.RunParameters;
import io.fusillade.record.RunSettings;
import io.gatling.core.CoreComponents;
import io.gatling.core.controller.inject.InjectionProfile;
import io.gatling.core.controller.inject.open.AtOnceOpenInjection;
import io.gatling.core.controller.inject.open.CompositeOpenInjectionStep;
import io.gatling.core.controller.inject.open.CompositeOpenInjectionStepLike;
import io.gatling.core.controller.inject.open.ConstantRateOpenInjection;
import io.gatling.core.controller.inject.open.NothingForOpenInjection;
import io.gatling.core.controller.inject.open.OpenInjectionProfile;
import io.gatling.core.controller.inject.open.OpenInjectionStep;
import io.gatling.core.controller.inject.open.RampOpenInjection;
import io.gatling.core.controller.inject.open.RampRateOpenInjection;
import io.gatling.core.scenario.SimulationParams;
import io.gatling.core.structure.PopulationBuilder;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The target rate of a simulation, read from its injection profile when the run opens, so that a
 * simulation that says {@code setUp(s.injectOpen(constantUsersPerSec(500).during(60)))} gets {@code
 * "rate": 500, "durationSeconds": 60} in {@code run.json} without saying it twice.
 *
 * <p>What is recorded (beside what the simulation recorded itself, which wins):
 *
 * <ul>
 *   <li>{@code injection}: every population's steps, in order, e.g. {@code [{"scenario": "lookups",
 *       "steps": [{"rate": 500, "seconds": 60}]}]}; a step is {@code {"rate", "seconds"}}
 *       (constantUsersPerSec), {@code {"from", "to", "seconds"}} (rampUsersPerSec), {@code
 *       {"users", "seconds"}} (rampUsers), {@code {"users"}} (atOnceUsers) or {@code
 *       {"pauseSeconds"}} (nothingFor); stairs ({@code incrementUsersPerSec}) are written as the
 *       constant and ramp steps they stand for. A closed-model population has {@code "model":
 *       "closed"} and no steps.
 *   <li>{@code rate} and {@code durationSeconds}, when every population holds at most one constant
 *       rate (ramps, pauses and at-once users around it are warm-ups, not targets): the rate of the
 *       first phase that has any (a phase is the populations that start together; {@code andThen}
 *       starts a later one), summed over that phase's populations, and the longest of their
 *       constant steps. Later phases at other rates are in {@code injection} only: a simulation
 *       that means one of them records its {@code rate} itself.
 *   <li>{@code rates} and {@code stepSeconds} (as {@link RunSettings.Steps}), when the profile is
 *       stepped instead: one population holds several constant rates, each as long as the others,
 *       and no other population holds any.
 * </ul>
 *
 * <p>None of these when the simulation recorded a {@code rate} or {@code rates} of its own.
 *
 * <p>Gatling's API gives the population builders to the simulation only, so they are read back from
 * Gatling's controller, which holds the simulation's parameters, and from the open injection
 * profile's steps: private fields of Gatling 3.15. If a later Gatling renames them, nothing is
 * recorded (and a debug line says why); the run goes on.
 */
final class InjectionProfiles {
  private static final Logger LOG = LoggerFactory.getLogger(InjectionProfiles.class);

  private InjectionProfiles() {}

  /**
   * The parameters to add to those the simulation recorded.
   *
   * @param core the run's Gatling components
   * @param recorded what the simulation recorded itself
   */
  static Map<String, Object> parameters(CoreComponents core, Map<String, Object> recorded) {
    try {
      Optional<SimulationParams> params = simulationParams(core);
      if (params.isEmpty()) {
        return Map.of();
      }
      return parameters(
          CollectionConverters.asJava(params.get().rootPopulationBuilders()), recorded);
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("Could not read the injection profile: {}", e.toString());
      return Map.of();
    }
  }

  /** The parameters of these root populations (their {@code andThen} children included). */
  static Map<String, Object> parameters(List<PopulationBuilder> roots, Map<String, Object> recorded)
      throws ReflectiveOperationException {
    List<Population> populations = new ArrayList<>();
    for (PopulationBuilder root : roots) {
      collect(root, 0, populations);
    }
    Map<String, Object> out = new LinkedHashMap<>();
    if (!recorded.containsKey("injection")) {
      out.put("injection", populations.stream().map(Population::toMap).toList());
    }
    if (recorded.containsKey(RunParameters.RATE) || recorded.containsKey("rates")) {
      return out;
    }
    target(populations).ifPresent(settings -> settings.toParameters().forEach(out::putIfAbsent));
    return out;
  }

  /** The target rate (or steps) of the populations, when they have one. */
  private static Optional<RunSettings> target(List<Population> populations) {
    List<Population> stepped = populations.stream().filter(p -> p.levels().size() > 1).toList();
    if (!stepped.isEmpty()) {
      boolean alone =
          stepped.size() == 1
              && populations.stream().filter(p -> !p.levels().isEmpty()).count() == 1;
      List<Step> levels = stepped.get(0).levels();
      boolean even = levels.stream().allMatch(s -> s.length().equals(levels.get(0).length()));
      if (!alone || !even) {
        return Optional.empty();
      }
      return Optional.of(
          RunSettings.NONE.withSteps(
              new RunSettings.Steps(
                  levels.stream().map(Step::rate).toList(), levels.get(0).length())));
    }
    // phase -> [sum of rates, longest duration in millis]
    Map<Integer, double[]> phases = new TreeMap<>();
    for (Population p : populations) {
      if (!p.levels().isEmpty()) {
        Step level = p.levels().get(0);
        double[] phase = phases.computeIfAbsent(p.phase(), k -> new double[2]);
        phase[0] += level.rate();
        phase[1] = Math.max(phase[1], p.constantLength().toMillis());
      }
    }
    if (phases.isEmpty()) {
      return Optional.empty();
    }
    // The first phase that holds a rate is the measured one: what precedes it warms up, what
    // follows it (the quickstart's log and topic phases) is another experiment.
    double[] phase = phases.values().iterator().next();
    return Optional.of(
        RunSettings.NONE.withRate(phase[0]).withDuration(Duration.ofMillis((long) phase[1])));
  }

  private static void collect(PopulationBuilder builder, int phase, List<Population> out)
      throws ReflectiveOperationException {
    out.add(Population.of(builder, phase));
    int stage = phase;
    for (scala.collection.immutable.List<PopulationBuilder> children :
        CollectionConverters.asJava(builder.children())) {
      stage++;
      for (PopulationBuilder child : CollectionConverters.asJava(children)) {
        collect(child, stage, out);
      }
    }
  }

  /** Gatling's controller actor holds the simulation's parameters. */
  private static Optional<SimulationParams> simulationParams(CoreComponents core)
      throws ReflectiveOperationException {
    Object actor = field(core.controller(), "actor");
    Object params = actor == null ? null : field(actor, "simulationParams");
    return params instanceof SimulationParams p ? Optional.of(p) : Optional.empty();
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }

  /** One population: its scenario, its phase, its open steps (null for a closed model). */
  private record Population(String scenario, int phase, List<OpenInjectionStep> steps) {
    static Population of(PopulationBuilder builder, int phase) throws ReflectiveOperationException {
      InjectionProfile profile = builder.injectionProfile();
      List<OpenInjectionStep> steps = null;
      List<OpenInjectionStep> arrivals =
          FusilladeArrivals.gatlingSteps(builder.scenarioBuilder().name());
      if (arrivals != null) {
        // its lanes stand for these steps: record the load, not the lanes
        steps = arrivals;
      } else if (profile instanceof OpenInjectionProfile open) {
        @SuppressWarnings("unchecked")
        scala.collection.immutable.List<OpenInjectionStep> scala =
            (scala.collection.immutable.List<OpenInjectionStep>) field(open, "steps");
        steps = new ArrayList<>();
        for (OpenInjectionStep step : CollectionConverters.asJava(scala)) {
          flatten(step, steps);
        }
      }
      return new Population(builder.scenarioBuilder().name(), phase, steps);
    }

    private static void flatten(OpenInjectionStep step, List<OpenInjectionStep> out) {
      if (step instanceof CompositeOpenInjectionStepLike like) {
        flatten(like.composite(), out);
      } else if (step instanceof CompositeOpenInjectionStep composite) {
        for (OpenInjectionStep s : CollectionConverters.asJava(composite.steps())) {
          flatten(s, out);
        }
      } else {
        out.add(step);
      }
    }

    /** Its constant rates in order, consecutive steps at the same rate merged. */
    List<Step> levels() {
      List<Step> levels = new ArrayList<>();
      if (steps == null) {
        return levels;
      }
      for (OpenInjectionStep s : steps) {
        if (s instanceof ConstantRateOpenInjection c && c.rate() > 0) {
          Duration length = Duration.ofMillis(c.duration().toMillis());
          Step last = levels.isEmpty() ? null : levels.get(levels.size() - 1);
          if (last != null && last.rate() == c.rate()) {
            levels.set(levels.size() - 1, new Step(c.rate(), last.length().plus(length)));
          } else {
            levels.add(new Step(c.rate(), length));
          }
        }
      }
      return levels;
    }

    Duration constantLength() {
      return levels().stream().map(Step::length).reduce(Duration.ZERO, Duration::plus);
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("scenario", scenario);
      if (phase > 0) {
        m.put("phase", phase);
      }
      if (steps == null) {
        m.put("model", "closed");
        return m;
      }
      m.put("steps", steps.stream().map(Population::stepMap).toList());
      return m;
    }

    private static Map<String, Object> stepMap(OpenInjectionStep step) {
      Map<String, Object> m = new LinkedHashMap<>();
      if (step instanceof ConstantRateOpenInjection c) {
        m.put("rate", RunParameters.number(c.rate()));
        m.put("seconds", seconds(c.duration().toMillis()));
      } else if (step instanceof RampRateOpenInjection r) {
        m.put("from", RunParameters.number(r.startRate()));
        m.put("to", RunParameters.number(r.endRate()));
        m.put("seconds", seconds(r.duration().toMillis()));
      } else if (step instanceof RampOpenInjection r) {
        m.put("users", r.users());
        m.put("seconds", seconds(r.duration().toMillis()));
      } else if (step instanceof AtOnceOpenInjection a) {
        m.put("users", a.users());
      } else if (step instanceof NothingForOpenInjection n) {
        m.put("pauseSeconds", seconds(n.duration().toMillis()));
      } else {
        m.put("step", step.toString());
      }
      return m;
    }

    private static Number seconds(long millis) {
      return millis % 1000 == 0 ? (Number) (millis / 1000) : (Number) (millis / 1000.0);
    }
  }

  /** A constant rate and how long it holds. */
  private record Step(double rate, Duration length) {}
}
