package io.fusillade.gatling;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.Status;
import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.util.Clock;
import io.gatling.core.CoreComponents;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import scala.Option;

/**
 * Reports one request name's results twice: to Gatling's stats engine (Gatling's HTML report, in
 * batches: see {@link StatsBatcher}), when Gatling has data writers, and to Fusillade's run
 * recorder (Fusillade's reports). Both get the same start and end, taken from the moment the action
 * was entered.
 */
public final class ResponseReporter {
  private final StatsEngine statsEngine;
  private final StatsBatcher batcher;
  private final boolean gatlingWrites;
  private final Clock clock;
  private final RequestChannel channel;
  private final String requestName;

  public ResponseReporter(CoreComponents core, RequestChannel channel) {
    this.statsEngine = core.statsEngine();
    this.batcher = StatsBatcher.of(statsEngine);
    // Without data writers (fusillade run: FusilladeRun.PROGRESS_PROPERTY) nothing reads the
    // responses that Gatling's stats engine would be handed: they are not batched up for it.
    this.gatlingWrites = !core.configuration().data().dataWriters().isEmpty();
    this.clock = core.clock();
    this.channel = channel;
    this.requestName = channel.name();
  }

  /**
   * Marks a request entered at {@code enteredNanos} (a {@link System#nanoTime()} read earlier, at
   * action entry, when the request's name was not yet known).
   */
  public Start start(long enteredNanos) {
    channel.sent();
    long epochMs = clock.nowMillis() - (System.nanoTime() - enteredNanos) / 1_000_000;
    return new Start(enteredNanos, epochMs);
  }

  /** When a request was entered: on the monotonic clock, and on the wall clock Gatling uses. */
  public record Start(long nanos, long epochMs) {}

  /** Counts {@code count} bytes sent or received under this request name. */
  public void bytes(long count) {
    channel.bytes(count);
  }

  /** Reports a finished request; {@code reason} is ignored when it is OK. */
  public void report(Session session, Start start, long endNanos, Status status, String reason) {
    channel.record(start.nanos(), endNanos, status, reason);
    if (!gatlingWrites) {
      return;
    }
    long endMs = start.epochMs() + Math.round((endNanos - start.nanos()) / 1e6);
    batcher.logResponse(
        session,
        requestName,
        start.epochMs(),
        endMs,
        status == Status.OK ? OK$.MODULE$ : KO$.MODULE$,
        status == Status.OK ? Option.empty() : Option.apply(reason));
  }

  /** Reports a request that could not even be built (a missing session attribute, say). */
  public void crash(Session session, Start start, String error) {
    channel.ko(start.nanos(), System.nanoTime(), "request not built: " + error);
    statsEngine.logRequestCrash(session.scenario(), session.groups(), requestName, error);
  }
}
