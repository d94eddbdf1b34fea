package io.fusillade.gatling;

import io.fusillade.record.RunRecorder;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * Base of Fusillade's protocol components: they keep their state per run, not per virtual user, so
 * a user's start changes nothing, and its exit only passes on the responses its event loop has
 * gathered for Gatling's stats engine (see {@link StatsBatcher}). They hold what every {@link
 * FusilladeAction} reports to: Gatling's core components and the run recorder.
 */
public abstract class SessionlessComponents implements ProtocolComponents {
  private final CoreComponents core;
  private final RunRecorder recorder;

  protected SessionlessComponents(CoreComponents core, RunRecorder recorder) {
    this.core = core;
    this.recorder = recorder;
  }

  /** Gatling's core components of the run (stats engine, clock, event loops). */
  public final CoreComponents core() {
    return core;
  }

  /** The run's Fusillade recorder. */
  public final RunRecorder recorder() {
    return recorder;
  }

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
