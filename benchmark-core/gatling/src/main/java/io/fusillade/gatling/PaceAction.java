package io.fusillade.gatling;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;

/** A lane of a limit search waits for its next arrival ({@link LimitPacer}). */
final class PaceAction extends NamedAction {
  private final LimitPacer pacer;
  private final Action next;

  PaceAction(LimitPacer pacer, Action next) {
    super("limit pace");
    this.pacer = pacer;
    this.next = next;
  }

  @Override
  public void execute(Session session) {
    pacer.arrive(session, next);
  }
}
