package io.fusillade.abort;

import io.fusillade.record.FailureClass;
import io.fusillade.record.FlushListener;
import io.fusillade.record.Injected;
import io.fusillade.record.RunStatus;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * Judges {@link AbortRule}s on the live run record: fed by the recorder's one-second flushes (a
 * {@link FlushListener}), it keeps the last seconds' counts and OK latencies and, at the end of
 * each second, evaluates every rule over its window. The first broken rule is reported once, with
 * the measured value, to the consumer given, which stops the run; nothing is reported after that.
 *
 * <p>A rule is judged only once the run has lasted its whole window (a first second's single error
 * is not 100% over ten seconds), and a window without any request is not judged.
 */
public final class AbortWatch implements FlushListener {
  private final List<AbortRule> rules;
  private final Consumer<String> onBroken;
  private final int keep;
  private final Deque<Second> seconds = new ArrayDeque<>();
  private Second current = new Second();
  private boolean fired;

  /** One flushed interval, all request names together. */
  private static final class Second {
    long requests;
    long errors; // server and network class
    final Histogram ok = new Histogram(3);
    double elapsed;
  }

  /**
   * @param rules the rules (none: the watch never fires)
   * @param onBroken receives why the run must stop, e.g. {@code "errors 100.0% > 5% over 5s (at
   *     21.0 s)"}, once, on the recorder's flushing thread: do not block it
   */
  public AbortWatch(List<AbortRule> rules, Consumer<String> onBroken) {
    this.rules = List.copyOf(rules);
    this.onBroken = onBroken;
    this.keep = rules.stream().mapToInt(AbortRule::windowSeconds).max().orElse(0);
  }

  @Override
  public void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    if (Injected.is(name)) {
      return; // failing on purpose: not the system's errors, nor its latency
    }
    long okCount = ok == null ? 0 : ok.getTotalCount();
    long koCount = ko == null ? 0 : ko.getTotalCount();
    current.requests += okCount + koCount;
    if (ok != null && okCount > 0) {
      current.ok.add(ok);
    }
    // KO of the injector's own making are neither requests of the system nor its errors.
    for (Map.Entry<String, Long> reason : errors.entrySet()) {
      if (FailureClass.of(reason.getKey()) == FailureClass.INJECTOR) {
        current.requests -= reason.getValue();
      } else {
        current.errors += reason.getValue();
      }
    }
  }

  @Override
  public void intervalEnd(long epochMs, double elapsedSeconds) {
    current.elapsed = elapsedSeconds;
    seconds.addLast(current);
    current = new Second();
    while (seconds.size() > keep) {
      seconds.removeFirst();
    }
    if (fired || rules.isEmpty()) {
      return;
    }
    for (AbortRule rule : rules) {
      String broken = judge(rule, elapsedSeconds);
      if (broken != null) {
        fired = true;
        onBroken.accept(broken);
        return;
      }
    }
  }

  @Override
  public void closed(RunStatus status) {
    fired = true;
  }

  /** Why the rule is broken now, or null. */
  private String judge(AbortRule rule, double elapsedSeconds) {
    int window = rule.windowSeconds();
    if (elapsedSeconds + 0.5 < window || seconds.size() < Math.min(window, keep)) {
      return null;
    }
    long requests = 0;
    long errors = 0;
    Histogram ok = rule.metric().equals("errors") ? null : new Histogram(3);
    int taken = 0;
    for (var it = seconds.descendingIterator(); it.hasNext() && taken < window; taken++) {
      Second s = it.next();
      requests += s.requests;
      errors += s.errors;
      if (ok != null) {
        ok.add(s.ok);
      }
    }
    double value;
    String shown;
    if (ok == null) {
      if (requests <= 0) {
        return null;
      }
      value = 100.0 * errors / requests;
      shown = String.format(Locale.ROOT, "%.1f%%", value);
    } else {
      if (ok.getTotalCount() == 0) {
        return null;
      }
      value = ok.getValueAtPercentile(rule.percentile()) / 1000.0;
      shown = String.format(Locale.ROOT, "%.1f ms", value);
    }
    if (!rule.broken(value)) {
      return null;
    }
    String condition =
        rule.text().replaceFirst("(?i)^abort\\s+when\\s+", "").replaceFirst("(?i)^\\S+\\s*", "");
    return String.format(
        Locale.ROOT, "%s %s %s (at %.1f s)", rule.metric(), shown, condition, elapsedSeconds);
  }
}
