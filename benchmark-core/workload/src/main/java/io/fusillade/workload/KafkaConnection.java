package io.fusillade.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A workload's {@code kafka:} section: where its topics live. {@link #toString()} shows no property
 * values (SASL settings hold secrets).
 *
 * @param bootstrapServers {@code host:port[,...]}, or null for an embedded Kafka
 * @param properties client properties for producer, consumers and admin ({@code security.protocol},
 *     {@code sasl.jaas.config} from {@code ${env:NAME}})
 */
public record KafkaConnection(String bootstrapServers, Map<String, String> properties) {

  /** Copies the map. */
  public KafkaConnection {
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
  }

  @Override
  public String toString() {
    return "KafkaConnection[bootstrapServers="
        + bootstrapServers
        + ", properties="
        + properties.keySet()
        + "]";
  }
}
