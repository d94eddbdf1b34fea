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
 * @param statusReason why the run ended as {@code status} says (a failed run's error, {@value
 *     RunRecorder#NO_REQUEST}, the reader's reason for an incomplete record), or null
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
    List<String> checks,
    String statusReason) {}
