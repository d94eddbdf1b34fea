package io.fusillade.gatling.logs;

import io.fusillade.gatling.FusilladeRun;
import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import scala.Function1;

/** The logs protocol as Gatling holds it: the store, the index, the data. */
public final class LogsProtocol implements Protocol {
  private final LogsSettings settings;

  LogsProtocol(LogsSettings settings) {
    this.settings = settings;
  }

  LogsSettings settings() {
    return settings;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LogsProtocol other && other.settings.equals(settings);
  }

  @Override
  public int hashCode() {
    return settings.hashCode();
  }

  @Override
  public String toString() {
    return "LogsProtocol[" + settings + "]";
  }

  /** Gatling's key for this protocol: one set of components (client, probe) per protocol. */
  public static final ProtocolKey<LogsProtocol, LogsComponents> KEY =
      new ProtocolKey<>() {
        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Class<Protocol> protocolClass() {
          return (Class) LogsProtocol.class;
        }

        @Override
        public LogsProtocol defaultProtocolValue(GatlingConfiguration configuration) {
          throw new IllegalStateException(
              "No logs protocol is configured: add .protocols(LogsDsl.logs.urls(...)) to setUp(...)");
        }

        @Override
        public Function1<LogsProtocol, LogsComponents> newComponents(CoreComponents core) {
          // Called once per run; the function it returns, once per scenario: share by protocol.
          Map<LogsProtocol, LogsComponents> components = new ConcurrentHashMap<>();
          return protocol ->
              components.computeIfAbsent(
                  protocol,
                  p -> {
                    LogsComponents created =
                        new LogsComponents(p.settings(), core, FusilladeRun.recorder(core));
                    FusilladeRun.closeAtEnd(created);
                    return created;
                  });
        }
      };
}
