package io.fusillade.record;

import java.util.Locale;

/** How a run ended, as written in {@code run.json}. */
public enum RunStatus {
  /** Still being written (or killed before it could say otherwise: see {@link #INCOMPLETE}). */
  RUNNING,
  /** Ended normally. */
  COMPLETED,
  /** Ended by an error in the load generator or its setup. */
  FAILED,
  /** Stopped early by a signal or the user; the record covers the time until then. */
  ABORTED,
  /**
   * Never written by a recorder: a reader's verdict on a record that still says {@link #RUNNING}
   * but whose process is gone (killed with {@code kill -9}, machine lost). The record covers the
   * seconds before the loss.
   */
  INCOMPLETE;

  public String jsonName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static RunStatus fromJson(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }

  /** True when the record does not cover the whole planned run. */
  public boolean isPartial() {
    return this != COMPLETED;
  }
}
