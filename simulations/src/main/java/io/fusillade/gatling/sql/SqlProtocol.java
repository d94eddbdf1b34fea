package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.sql.SqlClientOptions;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import scala.Function1;

/** The SQL protocol as Gatling holds it: where the database is and how much may be in flight. */
public final class SqlProtocol implements Protocol {
  private final SqlClientOptions options;

  SqlProtocol(SqlClientOptions options) {
    this.options = options;
  }

  public SqlClientOptions options() {
    return options;
  }

  @Override
  public String toString() {
    return "SqlProtocol[" + options + "]";
  }

  /** Gatling's key for this protocol: one set of components (pool, executor) per protocol. */
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
