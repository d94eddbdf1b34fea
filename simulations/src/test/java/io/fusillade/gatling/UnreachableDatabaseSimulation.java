package io.fusillade.gatling;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/**
 * A simulation for {@link RunVerdictTest} whose database cannot be reached: a port that was free a
 * moment ago, so nothing listens on it. Its protocol fails to open, Gatling crashes the run.
 */
public class UnreachableDatabaseSimulation extends Simulation {
  {
    var db =
        sql.url("jdbc:postgresql://127.0.0.1:" + closedPort() + "/nobody")
            .user("nobody")
            .poolSize(1);
    setUp(
            scenario("unreachable")
                .exec(sql("select one").query("select 1"))
                .injectOpen(atOnceUsers(1)))
        .protocols(db);
  }

  private static int closedPort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
