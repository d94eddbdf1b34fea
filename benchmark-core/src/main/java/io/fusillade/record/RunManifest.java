package io.fusillade.record;

import java.util.List;
import java.util.Map;

/**
 * What {@code run.json} says, as read back. {@code status} is the reader's verdict: a record that
 * says {@code running} but whose process is gone is {@link RunStatus#INCOMPLETE}.
 *
 * @param endEpochMs the end written by the recorder, or null when it never closed
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
    List<String> flags) {}
