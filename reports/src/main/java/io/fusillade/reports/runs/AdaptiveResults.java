package io.fusillade.reports.runs;

import io.fusillade.limit.StepResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The curve of an adaptive run ({@code fusillade run --mode adaptive}, {@code FusilladeAdaptive}),
 * from {@code run.json}'s {@code adaptive} parameter: the rate sent each second, what the system
 * served, the window's p99 and errors, the settled rate per minute and of the last minute.
 *
 * @param settledRate the settled rate of the run's last minute, per second
 * @param perMinute the settled rate of each minute
 * @param seconds each point's time from the run's start, seconds
 * @param rate the rate sent in each second
 * @param served what the system served (OK answers a second) in the window ending then
 * @param p99Ms the window's p99, ms
 * @param errorPercent the window's errors, % of the completed requests
 * @param slo the objectives held
 * @param injectorCeiling the injector's ceiling, or null when it vouched for every window
 */
public record AdaptiveResults(
    double settledRate,
    List<Double> perMinute,
    List<Double> seconds,
    List<Double> rate,
    List<Double> served,
    List<Double> p99Ms,
    List<Double> errorPercent,
    List<String> slo,
    Double injectorCeiling) {

  /** The run's curve, when it ran adaptively to its end (or was stopped after a second). */
  public static Optional<AdaptiveResults> of(RunData run) {
    return of(run.manifest().parameters().get("adaptive"));
  }

  /** The curve of a recorded {@code adaptive} parameter, when it holds one. */
  public static Optional<AdaptiveResults> of(Object recorded) {
    if (!(recorded instanceof Map<?, ?> m) || !(m.get("settledRate") instanceof Number settled)) {
      return Optional.empty();
    }
    return Optional.of(
        new AdaptiveResults(
            settled.doubleValue(),
            numbers(m.get("settledPerMinute")),
            numbers(m.get("seconds")),
            numbers(m.get("rate")),
            numbers(m.get("served")),
            numbers(m.get("p99Ms")),
            numbers(m.get("errorPercent")),
            m.get("slo") instanceof List<?> l
                ? l.stream().map(String::valueOf).toList()
                : List.of(),
            m.get("injectorCeiling") instanceof Number n ? n.doubleValue() : null));
  }

  private static List<Double> numbers(Object o) {
    if (!(o instanceof List<?> list)) {
      return List.of();
    }
    return list.stream().map(v -> v instanceof Number n ? n.doubleValue() : 0.0).toList();
  }

  /** One sentence: {@code settled at 195/s (per minute: 200, 98, 195)}, and the injector's cap. */
  public String describe() {
    String s =
        "settled at "
            + StepResult.rate(settledRate)
            + "/s over the last minute (per minute: "
            + perMinute.stream().map(StepResult::rate).collect(Collectors.joining(", "))
            + "; objectives: "
            + String.join(", ", slo)
            + ")";
    if (injectorCeiling != null) {
      s += "; the injector capped the rate at " + StepResult.rate(injectorCeiling) + "/s";
    }
    return s;
  }

  /** The curve as {@code summary.json} holds it. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new java.util.LinkedHashMap<>();
    m.put("settledRate", settledRate);
    m.put("settledPerMinute", perMinute);
    m.put("slo", slo);
    m.put("injectorCeiling", injectorCeiling);
    m.put("seconds", seconds);
    m.put("rate", rate);
    m.put("served", served);
    m.put("p99Ms", p99Ms);
    m.put("errorPercent", errorPercent);
    return m;
  }
}
