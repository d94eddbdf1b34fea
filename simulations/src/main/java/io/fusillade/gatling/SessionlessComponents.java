package io.fusillade.gatling;

import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Base of Fusillade's protocol components: they keep their state per run, not per virtual user, so
 * a user's start changes nothing, and its exit only passes on the responses its event loop has
 * gathered for Gatling's stats engine (see {@link StatsBatcher}).
 */
public abstract class SessionlessComponents implements ProtocolComponents {
  @Override
  public final Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public final Function1<Session, BoxedUnit> onExit() {
    return session -> {
      StatsBatcher.flushHere();
      return BoxedUnit.UNIT;
    };
  }
}
