package io.fusillade.local;

/**
 * A Kafka cluster in KRaft mode for tests and quick runs, whoever started it: the embedded one
 * ({@code LocalKafka}, the default) or containers ({@code ContainerKafka} in {@code
 * fusillade-containers}).
 */
public interface KafkaServer extends AutoCloseable {

  /** The bootstrap list for clients, e.g. {@code 127.0.0.1:9092,127.0.0.1:9094}. */
  String bootstrapServers();

  /** How many brokers the cluster has. */
  int brokers();

  /** Stops every broker and removes what they wrote. */
  @Override
  void close();
}
