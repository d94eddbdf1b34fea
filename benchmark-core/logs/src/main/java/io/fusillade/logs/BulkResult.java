package io.fusillade.logs;

import java.util.Map;

/**
 * What a {@code _bulk} request did.
 *
 * @param httpStatus the HTTP status, or 0 when no response came (then {@code error} says why)
 * @param documents the documents sent
 * @param failed the documents the server did not store (all of them when the request failed)
 * @param rejected of those, the ones rejected for back-pressure: HTTP 429, or items with status 429
 *     or an {@code es_rejected_execution_exception}
 * @param failuresByReason failed documents per reason (the item's {@code error.type}, or the
 *     request's error)
 * @param error for a failed request, a short stable reason ("HTTP 429", "connection refused"), else
 *     null
 * @param endNanos when the response was read, on {@link System#nanoTime()}
 */
public record BulkResult(
    int httpStatus,
    int documents,
    int failed,
    int rejected,
    Map<String, Integer> failuresByReason,
    String error,
    long endNanos) {

  /** Copies the map. */
  public BulkResult {
    failuresByReason = Map.copyOf(failuresByReason);
  }

  /** Whether every document was stored. */
  public boolean ok() {
    return error == null && failed == 0;
  }

  /**
   * The reason to report a KO with: the request's error, or the failed items' reasons (without
   * counts, which are recorded separately, so that reasons stay few and stable).
   */
  public String reason() {
    if (error != null) {
      return error;
    }
    if (failed == 0) {
      return null;
    }
    return "bulk items failed: "
        + String.join(", ", new java.util.TreeSet<>(failuresByReason.keySet()));
  }
}
