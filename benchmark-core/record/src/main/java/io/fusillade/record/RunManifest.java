package io.fusillade.record;

import java.util.List;
import java.util.Map;

/**
 * What {@code run.json} says, as read back. {@code status} is the reader's verdict: a record that
 * says {@code running} but whose process is gone is {@link RunStatus#INCOMPLETE}.
 *
 * @param endEpochMs the end written by the recorder, or null when it never closed
 * @param checks the checks (SLOs) the simulation declared, such as {@code "p99 < 50ms"}; evaluated
 *     by the reports
 */
public record RunManifest(
    int format,
    String runId,
    String simulation,
    RunStatus status,
    long startEpochMs,
    Long endEpochMs,
    Map<String, Object> parameters,
    Map<String, Object> injector,
    Map<String, Object> health,
    List<String> flags,
    List<String> checks) {

  /** A manifest without declared checks. */
  public RunManifest(
      int format,
      String runId,
      String simulation,
      RunStatus status,
      long startEpochMs,
      Long endEpochMs,
      Map<String, Object> parameters,
      Map<String, Object> injector,
      Map<String, Object> health,
      List<String> flags) {
    this(
        format,
        runId,
        simulation,
        status,
        startEpochMs,
        endEpochMs,
        parameters,
        injector,
        health,
        flags,
        List.of());
  }
}
