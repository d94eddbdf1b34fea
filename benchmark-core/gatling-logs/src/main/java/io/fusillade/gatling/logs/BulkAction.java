package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.BulkResult;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.concurrent.RejectedExecutionException;

/**
 * Sends one {@code _bulk} of the next N documents of the data set without blocking Gatling's event
 * loop: the body is built (and gzipped) on the protocol's builder threads, sent by the non-blocking
 * client, and the user resumes when the response has been read.
 *
 * <p>The latency runs from the moment the action is entered, so building the body is part of it
 * (metric {@value LogsComponents#BUILD} shows how much). A bulk with failed items is KO; its reason
 * lists the failure types and the counters hold the counts.
 */
final class BulkAction extends FusilladeAction<Void> {
  private final int documents;
  private final LogsComponents components;

  BulkAction(Expression<String> name, int documents, LogsComponents components, Action next) {
    super(name, components, next);
    this.documents = documents;
    this.components = components;
  }

  /** Nothing: the documents are the data set's next ones, whatever the session. */
  @Override
  protected Void resolve(Session session, String name) {
    return null;
  }

  @Override
  protected void send(Exchange exchange, Void nothing) {
    components.bulkSent(System.nanoTime());
    long first = components.reserve(documents);
    try {
      components.builders().execute(() -> buildAndSend(exchange, first));
    } catch (RejectedExecutionException e) {
      exchange.end(System.nanoTime(), Status.KO, "injector queue full");
    }
  }

  private void buildAndSend(Exchange exchange, long first) {
    LogsComponents.Workspace w = components.borrow();
    long buildStart = System.nanoTime();
    w.plain.reset();
    BulkBodies.append(components.source(), first, documents, w.plain);
    boolean gzip = components.settings().gzip();
    JsonBuffer body = w.plain;
    if (gzip) {
      w.bodies.gzip(w.plain, w.wire);
      body = w.wire;
    }
    components.buildMetric().record(buildStart, System.nanoTime());
    long plainBytes = w.plain.length();
    long wireBytes = body.length();
    components
        .client()
        .bulk(components.settings().indexName(), body, gzip, documents)
        .whenComplete(
            (result, failure) -> {
              components.release(w);
              BulkResult r = result;
              Status status = r != null && r.ok() ? Status.OK : Status.KO;
              String reason = r != null ? r.reason() : String.valueOf(failure);
              if (r != null) {
                components.count(documents - r.failed(), plainBytes, wireBytes, r);
              }
              exchange.bytes(wireBytes);
              long end = r != null ? r.endNanos() : System.nanoTime();
              exchange.end(end, status, reason);
            });
  }
}
