package io.fusillade.gatling;

import com.typesafe.scalalogging.Logger;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import org.slf4j.LoggerFactory;

/** A lane of a limit search waits for its next arrival ({@link LimitPacer}). */
final class PaceAction implements Action {
  private Logger logger = Logger.apply(LoggerFactory.getLogger(PaceAction.class));
  private final LimitPacer pacer;
  private final Action next;

  PaceAction(LimitPacer pacer, Action next) {
    this.pacer = pacer;
    this.next = next;
  }

  @Override
  public String name() {
    return "limit pace";
  }

  @Override
  public void execute(Session session) {
    pacer.arrive(session, next);
  }

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  @SuppressWarnings("checkstyle:MethodName")
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }
}
