package io.fusillade.scenarios.topic;

import io.fusillade.gatling.ClockOffset;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The clock of a Kafka cluster, for the injectors of one topic test to share ({@link ClockOffset}):
 * a broker stamps each message it appends to a topic whose {@code message.timestamp.type} is {@code
 * LogAppendTime} with its own time, and says it in the acknowledgement. A write's round trip
 * therefore reads the broker's clock, in whole milliseconds: the offset is taken from the middle of
 * the millisecond and is half a millisecond less sure. The probe topic, {@value #TOPIC}, has one
 * partition and holds a few bytes per run.
 */
final class KafkaClock {
  /** The topic whose appends read the broker's clock. */
  static final String TOPIC = "fusillade-clock";

  private KafkaClock() {}

  /**
   * This injector's offset to the cluster's clock, or null (said on the console) when it cannot be
   * read: the run goes on, on this injector's clock.
   *
   * @param bootstrap the cluster
   * @param common the workload's client properties (SASL, TLS)
   */
  static ClockOffset offset(String bootstrap, Map<String, String> common) {
    Map<String, Object> properties = new HashMap<>(common);
    properties.put("bootstrap.servers", bootstrap);
    String reference = "Kafka at " + bootstrap;
    try (Admin admin = Admin.create(properties)) {
      try {
        admin
            .createTopics(
                List.of(
                    new NewTopic(TOPIC, Optional.of(1), Optional.empty())
                        .configs(Map.of("message.timestamp.type", "LogAppendTime"))))
            .all()
            .get(30, TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
      }
      // a probe topic made otherwise (CreateTime) would give back this injector's own clock
      String type = timestampType(admin, TOPIC, Duration.ofSeconds(30));
      if (!"LogAppendTime".equals(type)) {
        throw new IllegalStateException(
            "topic " + TOPIC + " has message.timestamp.type " + type + ", not LogAppendTime");
      }
      Map<String, Object> producer = new HashMap<>(properties);
      producer.put(
          "acks", "1"); // the leader's append time is the clock read: no replica waited for
      producer.put("max.block.ms", "30000");
      try (KafkaProducer<byte[], byte[]> probe =
          new KafkaProducer<>(producer, new ByteArraySerializer(), new ByteArraySerializer())) {
        // the first write fetches metadata: a round trip the samples' best one leaves out
        probe.send(new ProducerRecord<>(TOPIC, new byte[0])).get(30, TimeUnit.SECONDS);
        ClockOffset measured =
            ClockOffset.measure(
                () ->
                    probe
                                .send(new ProducerRecord<>(TOPIC, new byte[0]))
                                .get(5, TimeUnit.SECONDS)
                                .timestamp()
                            * 1000
                        + 500,
                reference);
        return new ClockOffset(
            measured.offsetMicros(), measured.uncertaintyMicros() + 500, measured.reference());
      }
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      System.out.println(
          "Fusillade: cannot read the clock of "
              + reference
              + " ("
              + io.fusillade.topic.KafkaErrors.reason(rootOf(e))
              + "): this injector's clock offset is not measured; --start-at and the messages'"
              + " stamps are read on its own clock");
      return null;
    }
  }

  /**
   * A topic's {@code message.timestamp.type}. Asked again while the broker answering does not know
   * the topic yet: the injectors of a test create the probe topic at once, and each may then ask a
   * broker that the controller's news has not reached ({@code UnknownTopicOrPartitionException}, CI
   * 2026-12-02): for {@code patience} at most, each answer awaited for 30 s at most.
   */
  static String timestampType(Admin admin, String topic, Duration patience) throws Exception {
    ConfigResource config = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    long deadline = System.nanoTime() + patience.toNanos();
    while (true) {
      try {
        return admin
            .describeConfigs(List.of(config))
            .all()
            .get(30, TimeUnit.SECONDS)
            .get(config)
            .get("message.timestamp.type")
            .value();
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof UnknownTopicOrPartitionException)
            || System.nanoTime() > deadline) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }

  /** The first cause that says something: a client's constructor wraps its config's error. */
  private static Throwable rootOf(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }
}
