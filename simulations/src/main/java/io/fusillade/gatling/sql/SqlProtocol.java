package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import scala.Function1;

/**
 * The SQL protocol as Gatling holds it: the nodes, how requests are spread over them, how much may
 * be in flight on each, and the engine that talks to them.
 *
 * @param failoverBackoff how long a failing node is skipped, or null when failover is off
 */
public record SqlProtocol(
    List<SqlClientOptions> nodes, SqlBalance balance, Duration failoverBackoff, SqlEngine engine)
    implements Protocol {

  public SqlProtocol {
    nodes = List.copyOf(nodes);
  }

  /** Gatling's key for this protocol: one set of components (pools, workers) per protocol. */
  public static final ProtocolKey<SqlProtocol, SqlComponents> KEY =
      new ProtocolKey<>() {
        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Class<Protocol> protocolClass() {
          return (Class) SqlProtocol.class;
        }

        @Override
        public SqlProtocol defaultProtocolValue(GatlingConfiguration configuration) {
          throw new IllegalStateException(
              "No SQL protocol is configured: add .protocols(SqlDsl.sql.url(...)) to setUp(...)");
        }

        @Override
        public Function1<SqlProtocol, SqlComponents> newComponents(CoreComponents core) {
          // Called once per run; the function it returns, once per scenario: share by protocol.
          Map<SqlProtocol, SqlComponents> components = new ConcurrentHashMap<>();
          return protocol ->
              components.computeIfAbsent(
                  protocol,
                  p -> {
                    SqlComponents created = new SqlComponents(p, core, FusilladeRun.recorder(core));
                    FusilladeRun.closeAtEnd(created);
                    return created;
                  });
        }
      };
}
