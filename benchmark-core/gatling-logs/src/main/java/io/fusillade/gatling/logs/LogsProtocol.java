package io.fusillade.gatling.logs;

import io.fusillade.gatling.FusilladeProtocolKey;
import io.gatling.core.protocol.Protocol;

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
  public static final FusilladeProtocolKey<LogsProtocol, LogsComponents> KEY =
      new FusilladeProtocolKey<>(
          LogsProtocol.class,
          "No logs protocol is configured: add .protocols(LogsDsl.logs.urls(...)) to setUp(...)",
          (protocol, core, recorder) -> new LogsComponents(protocol.settings(), core, recorder));
}
