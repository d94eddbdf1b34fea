package io.fusillade.gatling.logs;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.FusilladeAction;
import io.fusillade.logs.BulkResult;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.nio.charset.StandardCharsets;

/**
 * Sends one of {@link LogsFaults}' bulks: a body fixed when the action is built, for the index the
 * protocol created. It takes no document of the data set and adds nothing to the documents'
 * counters, so that the workload's own bulks stay the same with or without injection.
 */
final class InjectedBulkAction extends FusilladeAction<Void> {
  private final LogsComponents components;
  private final byte[] body;

  /**
   * @param kind the kind
   * @param index the index whose mapping the body is made for; null for the one the protocol
   *     creates
   */
  InjectedBulkAction(String kind, IndexSpec index, LogsComponents components, Action next) {
    super(Expression.constant(io.fusillade.record.Injected.name(kind)), components, next);
    this.components = components;
    IndexSpec created = index != null ? index : components.settings().index().create();
    this.body =
        LogsFaults.body(kind, created == null ? null : created.mappings())
            .getBytes(StandardCharsets.UTF_8);
  }

  @Override
  protected Void resolve(Session session, String name) {
    return null;
  }

  @Override
  protected void send(Exchange exchange, Void nothing) {
    // a fresh buffer: the client reads it until the response, and the body is a few bytes
    JsonBuffer buffer = new JsonBuffer(body.length).raw(body);
    components
        .client()
        .bulk(components.settings().indexName(), buffer, false, 1)
        .whenComplete(
            (result, failure) -> {
              BulkResult r = result;
              Status status = r != null && r.ok() ? Status.OK : Status.KO;
              exchange.bytes(body.length);
              exchange.end(
                  r != null ? r.endNanos() : System.nanoTime(),
                  status,
                  r != null ? r.reason() : String.valueOf(failure));
            });
  }
}
