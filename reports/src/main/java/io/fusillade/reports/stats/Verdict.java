package io.fusillade.reports.stats;

/** The outcome of comparing a metric between a candidate and a baseline. */
public enum Verdict {
  /** The change is significant and beyond the threshold, in the good direction. */
  BETTER,
  /** The change is significant and beyond the threshold, in the bad direction: a regression. */
  WORSE,
  /** Anything else: not significant, within the threshold, or not enough runs to tell. */
  NO_SIGNIFICANT_CHANGE;

  /**
   * The word used in reason texts and reports.
   *
   * @return "better", "worse" or "no significant change"
   */
  public String label() {
    return switch (this) {
      case BETTER -> "better";
      case WORSE -> "worse";
      case NO_SIGNIFICANT_CHANGE -> "no significant change";
    };
  }
}
