package io.fusillade.abort;

import io.fusillade.record.SettingValues;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A condition that stops a run while it is under way: {@code errors > 5% over 10s} (the share of
 * requests that failed by the fault of the system under test or the network, over the last ten
 * seconds) or {@code p99 > 2s over 30s} (a percentile of the OK requests' latency, from their
 * intended start, over the last thirty seconds). An optional leading {@code abort when} is
 * accepted, so the rule reads the same in a sentence, a YAML list and a command line.
 *
 * <p>Failures the injector caused (its queue full, a user late to start: {@link
 * io.fusillade.record.FailureClass#INJECTOR}) never count as errors: a saturated load generator
 * must not abort a run in the name of the system under test.
 *
 * @param text the rule as written, for messages and the record
 * @param metric {@code errors}, or a latency percentile: {@code p50}, {@code p99.9}, {@code max}
 * @param limit the threshold: a percentage for {@code errors}, milliseconds for a latency
 * @param inclusive true for {@code >=}, false for {@code >}
 * @param window how far back each evaluation looks
 */
public record AbortRule(
    String text, String metric, double limit, boolean inclusive, Duration window) {

  private static final Pattern RULE =
      Pattern.compile(
          "(?:abort\\s+when\\s+)?(errors|p\\d+(?:\\.\\d+)?|max)\\s*(>=|>)\\s*"
              + "(\\d+(?:\\.\\d+)?)\\s*(%|ms|s)?\\s+over\\s+(\\S+)",
          Pattern.CASE_INSENSITIVE);

  /** What a rule looks like, for error messages. */
  public static final String EXAMPLES = "'errors > 5% over 10s' or 'p99 > 2s over 30s'";

  /**
   * Reads a rule.
   *
   * @throws IllegalArgumentException with a message that quotes the rule and shows the form
   */
  public static AbortRule parse(String text) {
    String rule = text == null ? "" : text.strip();
    Matcher m = RULE.matcher(rule);
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "abort rule '" + rule + "' is not of the form " + EXAMPLES);
    }
    String metric = m.group(1).toLowerCase(Locale.ROOT);
    double value = Double.parseDouble(m.group(3));
    String unit = m.group(4) == null ? "" : m.group(4).toLowerCase(Locale.ROOT);
    double limit;
    if (metric.equals("errors")) {
      if (!unit.equals("%")) {
        throw new IllegalArgumentException(
            "abort rule '"
                + rule
                + "': an error share is a percentage, e.g. 'errors > 5% over 10s'");
      }
      if (value >= 100 && !m.group(2).contains("=")) {
        throw new IllegalArgumentException(
            "abort rule '"
                + rule
                + "' can never hold: errors are at most 100% of the requests (e.g. 'errors >"
                + " 50% over 10s')");
      }
      if (value > 100) {
        throw new IllegalArgumentException(
            "abort rule '" + rule + "' can never hold: errors are at most 100% of the requests");
      }
      limit = value;
    } else {
      if (!unit.equals("ms") && !unit.equals("s")) {
        throw new IllegalArgumentException(
            "abort rule '"
                + rule
                + "': a latency needs its unit, ms or s, e.g. 'p99 > 2s over 30s'");
      }
      double percentile = metric.equals("max") ? 100 : Double.parseDouble(metric.substring(1));
      if (percentile <= 0 || percentile > 100) {
        throw new IllegalArgumentException(
            "abort rule '" + rule + "': " + metric + " is not a percentile between p0 and p100");
      }
      limit = unit.equals("s") ? value * 1000 : value;
    }
    Duration window;
    try {
      window = SettingValues.parseDuration(m.group(5));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "abort rule '" + rule + "': '" + m.group(5) + "' is not a duration (10s, 1m...)");
    }
    if (window.toMillis() < 1000 || window.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException(
          "abort rule '" + rule + "': the window is whole seconds, 1s or more (the record's step)");
    }
    return new AbortRule(rule, metric, limit, m.group(2).equals(">="), window);
  }

  /** True when {@code value} (in the rule's unit) breaks the rule. */
  public boolean broken(double value) {
    return inclusive ? value >= limit : value > limit;
  }

  /** The window in whole seconds. */
  public int windowSeconds() {
    return (int) window.toSeconds();
  }

  /** The percentile of a latency rule ({@code 100} for {@code max}); NaN for {@code errors}. */
  public double percentile() {
    if (metric.equals("errors")) {
      return Double.NaN;
    }
    return metric.equals("max") ? 100 : Double.parseDouble(metric.substring(1));
  }
}
