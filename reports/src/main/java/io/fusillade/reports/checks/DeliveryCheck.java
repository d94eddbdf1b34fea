package io.fusillade.reports.checks;

import io.fusillade.reports.format.Numbers;
import io.fusillade.reports.runs.Delivery;
import io.fusillade.reports.runs.RunData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code no messages lost} and {@code delivery exact}, optionally {@code for <topic>}: the topic
 * protocol's delivery counts ({@code run.json} health {@code topic.<T>.delivery}, see {@link
 * Delivery}) of every topic, or of one.
 *
 * <ul>
 *   <li>{@code no messages lost}: every message the broker acknowledged was received;
 *   <li>{@code delivery exact}: besides, none was received twice and none out of order within its
 *       producer and partition (the verifier's {@code exact}).
 * </ul>
 *
 * A run without delivery counts fails (no topic was read, or the run was killed before its topics
 * were verified), and so does a topic with no acknowledged message: nothing shows the messages
 * arrived. A delivery that was not verified (the run stopped before its consumers drained) fails
 * saying so and how many acknowledged messages were unread, never counting them as lost.
 *
 * @param exact whether duplicates and reordering fail it too
 * @param topic the topic, or null for every topic
 */
record DeliveryCheck(String text, boolean exact, String topic) implements Check {

  @Override
  public CheckResult evaluate(RunData run) {
    Map<String, Delivery> deliveries = Delivery.of(run);
    if (deliveries.isEmpty()) {
      String none =
          "no delivery counts in the run record (no topic read by consumers, or the run ended"
              + " before its topics were verified)";
      return CheckResult.of(text, false, none, none + ": nothing shows the messages arrived");
    }
    List<Delivery> judged = new ArrayList<>();
    if (topic == null) {
      judged.addAll(deliveries.values());
    } else if (deliveries.containsKey(topic)) {
      judged.add(deliveries.get(topic));
    } else {
      String none =
          "no delivery counts for topic \""
              + topic
              + "\" (topics: "
              + String.join(", ", deliveries.keySet())
              + ")";
      return CheckResult.of(text, false, none, none + ": nothing shows the messages arrived");
    }
    if (judged.stream().allMatch(Delivery::oneOfSeveral)) {
      // one injector's record of several whose readers shared a group: it read some of the
      // others' messages and they some of its own; only their records together can say
      String measured =
          judged.stream()
              .map(
                  d ->
                      (judged.size() > 1 ? d.topic() + ": " : "")
                          + d.acknowledged()
                          + " acknowledged here")
              .reduce((a, b) -> a + "; " + b)
              .orElse("");
      return CheckResult.deferred(text, measured, measured + "; " + judged.get(0).notVerified());
    }
    boolean passed = true;
    List<String> parts = new ArrayList<>();
    for (Delivery d : judged) {
      // not verified (the run stopped before the drain): it cannot pass, and says why, not "lost"
      boolean ok = d.verified() && d.acknowledged() > 0 && d.lost() == 0;
      if (exact) {
        ok &= d.duplicated() == 0 && d.outOfOrder() == 0;
      }
      passed &= ok;
      parts.add((judged.size() > 1 ? d.topic() + ": " : "") + measured(d));
    }
    String measured = String.join("; ", parts);
    String rule =
        exact
            ? "the rule: every message the broker acknowledged received, none twice and none out"
                + " of order within its producer and partition"
            : "the rule: every message the broker acknowledged received";
    return CheckResult.of(
        text,
        passed,
        measured,
        measured + (judged.size() > 1 ? " (every topic read by consumers)" : "") + "; " + rule);
  }

  /** {@code lost = 0 of 2000 acknowledged}, with duplicates and reordering for {@code exact}. */
  private String measured(Delivery d) {
    if (!d.verified()) {
      return d.notVerifiedLine();
    }
    if (d.acknowledged() == 0) {
      return "no message acknowledged";
    }
    StringBuilder m = new StringBuilder("lost = ").append(Numbers.count(d.lost()));
    if (exact) {
      m.append(", duplicated = ")
          .append(Numbers.count(d.duplicated()))
          .append(", out of order = ")
          .append(Numbers.count(d.outOfOrder()));
    }
    m.append(" of ")
        .append(Numbers.count(d.acknowledged()))
        .append(" acknowledged, ")
        .append(Numbers.count(d.received()))
        .append(" received");
    if (!d.drained()) {
      m.append(" (the consumers did not finish reading before the drain timeout)");
    }
    return m.toString();
  }

  @Override
  public java.util.Optional<String> inapplicable(RunShape shape) {
    return shape.topicReaders()
        ? java.util.Optional.empty()
        : java.util.Optional.of(
            "delivery is verified by topic readers, and this run reads no topic");
  }
}
