package io.fusillade.cli;

import io.fusillade.limit.LimitChainWatch;
import io.fusillade.limit.LimitResult;
import io.fusillade.limit.StepResult;
import io.fusillade.workload.TopicWorkload;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Seed 000's three figures from one chained limit run ({@code fusillade limit --then-latency-at},
 * {@code fusillade study streaming}): the maximum speed in MB/s, the idle p50 end-to-end and the
 * p50 end-to-end at a share of the maximum, each line saying how it was obtained. Read from the run
 * record's {@code limit} and {@code chain} parameters, so that the console and a later look at the
 * record say the same.
 *
 * @param topic the topic searched, with its message size, replication and producer settings
 * @param result the search's result
 * @param slo the objectives every step of the search was judged on
 * @param chain the {@code chain} parameter: its settings and its two steps
 */
record StreamingFigures(
    TopicWorkload topic, LimitResult result, List<String> slo, Map<?, ?> chain) {

  /** The mean size of the topic's messages, bytes: the middle of its {@code message_size} range. */
  double messageBytes() {
    long[] range = topic.messageSize().integralRange();
    return (range[0] + range[1]) / 2.0;
  }

  /** Whether both chained steps passed (the read lag did not grow, no error, messages read). */
  boolean passed() {
    return Boolean.TRUE.equals(step("idleResult").get("passed"))
        && Boolean.TRUE.equals(step("latencyResult").get("passed"));
  }

  /** Why a chained step failed, one line each (empty when both passed). */
  List<String> failures() {
    List<String> lines = new ArrayList<>();
    for (String name : List.of("idleResult", "latencyResult")) {
      Map<?, ?> s = step(name);
      if (!Boolean.TRUE.equals(s.get("passed"))) {
        lines.add(
            (name.equals("idleResult") ? "idle step" : "step at a share of the maximum")
                + ": "
                + s.get("why"));
      }
    }
    return lines;
  }

  /** The figures of a chained limit run's {@code limit} and {@code chain} parameters. */
  static StreamingFigures of(TopicWorkload topic, Map<?, ?> limit, Map<?, ?> chain) {
    List<String> slo = new ArrayList<>();
    if (limit.get("slo") instanceof List<?> list) {
      list.forEach(o -> slo.add(String.valueOf(o)));
    }
    return new StreamingFigures(topic, LimitResult.fromMap(limit), slo, chain);
  }

  /** The lines to print: a heading with the setting, then the three figures. */
  List<String> lines() {
    List<String> lines = new ArrayList<>();
    double bytes = messageBytes();
    lines.add(
        String.format(
            Locale.ROOT,
            "Seed 000's figures, topic %s: %s-byte messages, %d partitions, replication %d,"
                + " acks=%s, compression %s, %d readers in one group, writers and readers at once:",
            topic.name(),
            StepResult.number(bytes),
            topic.partitions(),
            topic.replication(),
            topic.producer().getOrDefault("acks", "all (Kafka's default)"),
            topic.producer().getOrDefault("compression.type", "none (Kafka's default)"),
            topic.consumers()));
    Double max = LimitChainWatch.base(result);
    if (max == null) {
      lines.add(
          "  maximum speed: none found (" + result.describe() + "); no step ran at a share of it");
    } else {
      lines.add(
          String.format(
              Locale.ROOT,
              "  maximum speed: %s%s MB/s = %s msgs/s x %s B (%s; every step writing and reading,"
                  + " judged on: %s)",
              result.limit() == null ? "at least " : "",
              mb(max * bytes),
              StepResult.rate(max),
              StepResult.number(bytes),
              result.limit() != null
                  ? "the limit search's rate, confirmed by a step of its own"
                  : result.verdict() == LimitResult.Verdict.ABOVE_MAX
                      ? "the search's highest rate, sustained: the limit is above it"
                      : "the highest rate sustained before the injector became the limit ("
                          + result.describe()
                          + "): the system's is above it",
              String.join(", ", slo)));
    }
    Map<?, ?> idle = step("idleResult");
    lines.add(
        String.format(
            Locale.ROOT,
            "  idle p50 end-to-end: %s (the first step: %s msgs/s = %s Kbit/s for %s, its warm-up"
                + " left out; read lag %s; %s)",
            ms(idle.get("e2eP50Ms")),
            StepResult.number(number(chain.get("idleRate"))),
            StepResult.number(number(chain.get("idleRate")) * bytes * 8 / 1000),
            chain.get("idle"),
            idle.get("lag"),
            verdict(idle)));
    Map<?, ?> latency = step("latencyResult");
    lines.add(
        String.format(
            Locale.ROOT,
            "  p50 end-to-end at %s of max: %s (the last step: %s msgs/s = %s MB/s, %s x %s, for"
                + " %s, its warm-up left out; read lag %s; %s)",
            share(number(chain.get("latencyAt"))),
            ms(latency.get("e2eP50Ms")),
            latency.get("target") == null ? "-" : StepResult.rate(number(latency.get("target"))),
            latency.get("target") == null ? "-" : mb(number(latency.get("target")) * bytes),
            chain.get("latencyAt"),
            latency.get("of") == null ? "the maximum" : latency.get("of"),
            chain.get("latencyStep"),
            latency.get("lag"),
            verdict(latency)));
    return lines;
  }

  private Map<?, ?> step(String name) {
    return chain.get(name) instanceof Map<?, ?> m ? m : Map.of();
  }

  private static String verdict(Map<?, ?> step) {
    return Boolean.TRUE.equals(step.get("passed")) ? "passed" : "FAILED: " + step.get("why");
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  private static String ms(Object o) {
    return o instanceof Number n ? StepResult.number(n.doubleValue()) + " ms" : "not measured";
  }

  private static String mb(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.2f", bytesPerSecond / 1e6);
  }

  /** 0.33 as "1/3", 0.5 as "1/2", else a percentage. */
  static String share(double s) {
    for (int d = 2; d <= 10; d++) {
      if (Math.abs(s * d - 1) < 0.02) {
        return "1/" + d;
      }
    }
    return String.format(Locale.ROOT, "%s%%", StepResult.number(s * 100));
  }
}
