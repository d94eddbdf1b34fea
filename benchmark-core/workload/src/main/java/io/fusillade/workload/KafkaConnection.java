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
 * @param embeddedDiskSize the embedded brokers' disk each, in bytes ({@code embedded_disk_size:
 *     16MB}: the disk test), or 0 for none; never with {@code bootstrapServers}
 */
public record KafkaConnection(
    String bootstrapServers, Map<String, String> properties, long embeddedDiskSize) {

  /** A section without a disk size. */
  public KafkaConnection(String bootstrapServers, Map<String, String> properties) {
    this(bootstrapServers, properties, 0);
  }

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
