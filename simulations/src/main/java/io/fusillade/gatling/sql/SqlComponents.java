package io.fusillade.gatling.sql;

import io.fusillade.record.RunRecorder;
import io.fusillade.sql.SqlClient;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.runtime.BoxedUnit;

/** The SQL protocol's per-run state: the client (pool and executor) and the run recorder. */
public final class SqlComponents implements ProtocolComponents, AutoCloseable {
  private final SqlClient client;
  private final CoreComponents core;
  private final RunRecorder recorder;

  SqlComponents(SqlProtocol protocol, CoreComponents core, RunRecorder recorder) {
    this.core = core;
    this.recorder = recorder;
    // Opens the pool now, before injection: an unreachable database fails the run here.
    this.client = SqlClient.open(protocol.options());
  }

  public SqlClient client() {
    return client;
  }

  public CoreComponents core() {
    return core;
  }

  public RunRecorder recorder() {
    return recorder;
  }

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return session -> BoxedUnit.UNIT;
  }

  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "SqlComponents[" + client.options() + "]";
  }
}
