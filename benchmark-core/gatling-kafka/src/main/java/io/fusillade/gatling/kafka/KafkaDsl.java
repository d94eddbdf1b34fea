package io.fusillade.gatling.kafka;

import io.fusillade.gatling.RequestNames;
import io.fusillade.gatling.check.Check;
import io.fusillade.topic.TopicClientOptions;
import io.fusillade.topic.TopicSpec;
import io.gatling.javaapi.core.Session;
import java.util.function.Function;

/**
 * The entry point of Fusillade's Kafka protocol (topics over the Kafka API) for Gatling
 * simulations: {@code kafka} configures the protocol, {@code kafka("name")} starts a request,
 * {@code topic("t")} declares a topic.
 *
 * <pre>{@code
 * import static io.fusillade.gatling.kafka.KafkaDsl.*;
 *
 * KafkaProtocolBuilder protocol = kafka.bootstrapServers("127.0.0.1:9092")
 *     .topic(topic("events").partitions(4).consumers(4))
 *     .producer("linger.ms", "5");
 * ScenarioBuilder writers = scenario("writers")
 *     .exec(kafka("write").send("events").key("#{userId}").value("{\"user\":\"#{userId}\"}")
 * .header("source", "#{region}").check(offset().gte(0)));
 * setUp(writers.injectOpen(constantUsersPerSec(2000).during(60))).protocols(protocol);
 * }</pre>
 *
 * <p>Defaults follow the YDB Topics rules: acks from all replicas, no compression, idempotence,
 * consumers reading while producers write. See {@code src/site/topics.md}.
 */
public final class KafkaDsl {
  /** The topic protocol with its defaults; give it bootstrap servers. */
  public static final KafkaProtocolBuilder kafka = new KafkaProtocolBuilder(KafkaSettings.DEFAULT);

  private KafkaDsl() {}

  /**
   * A write that fails on purpose ({@link TopicFaults}), for a topic: named {@code injected
   * <kind>}, sent by a producer of its own, left out of the run's error and latency checks unless a
   * check names it.
   *
   * @param kind one of {@link TopicFaults#KINDS}, e.g. {@link TopicFaults#OVERSIZED_MESSAGE}
   * @param topic the workload's topic (a missing topic's name is made from it)
   * @return the request
   * @throws IllegalArgumentException for an unknown kind
   *     <p>Example: {@code exec(injected(TopicFaults.OVERSIZED_MESSAGE, "events"))}.
   */
  public static TopicInjectedBuilder injected(String kind, String topic) {
    return new TopicInjectedBuilder(kind, topic);
  }

  /**
   * Starts a topic request. {@code name} is the request's name in reports, a Gatling EL string or a
   * constant: keep it to a few distinct values.
   *
   * <p>Example: {@code kafka("write").send("events").key("#{userId}")}.
   */
  public static KafkaRequest kafka(String name) {
    return new KafkaRequest(RequestNames.of("topic", name));
  }

  /**
   * Starts a topic request whose name is computed from the session (keep the names few).
   *
   * <p>Example: {@code kafka(session -> "write " + session.getString("kind"))}.
   */
  public static KafkaRequest kafka(Function<Session, String> name) {
    return new KafkaRequest(RequestNames.of("topic", name));
  }

  /**
   * A topic to declare with {@link KafkaProtocolBuilder#topic(TopicBuilder)}: created with 1
   * partition and 1 replica when missing, no consumers; change it with its fluent methods.
   *
   * <p>Example: {@code kafka.bootstrapServers(servers).topic(topic("events").partitions(4))}.
   */
  public static TopicBuilder topic(String name) {
    return new TopicBuilder(TopicSpec.of(name));
  }

  /**
   * The producer defaults, for reference: {@link TopicClientOptions#PRODUCER_DEFAULTS}.
   *
   * <p>Example: {@code producerDefaults().get("acks")}.
   */
  public static java.util.Map<String, String> producerDefaults() {
    return TopicClientOptions.PRODUCER_DEFAULTS;
  }

  /**
   * Check: the partition the message went to, an {@code Integer}.
   *
   * <p>Example: {@code kafka("write").send("events").key("#{user}").check(partition().in(0, 1))}.
   */
  public static Check<TopicAck, Integer> partition() {
    return TopicChecks.partition();
  }

  /**
   * Check: the message's offset in its partition, a {@code Long}; not found when the broker did not
   * acknowledge it.
   *
   * <p>Example: {@code .check(offset().gte(0).saveAs("offset"))}.
   */
  public static Check<TopicAck, Long> offset() {
    return TopicChecks.offset();
  }

  /**
   * Check: whether the broker acknowledged the message, a {@code Boolean}. A send with such a check
   * is judged by its checks alone: {@code acknowledged().is(false)} expects a refusal.
   *
   * <p>Example: {@code kafka("too
   * big").send("events").value(huge).check(acknowledged().is(false))}.
   */
  public static Check<TopicAck, Boolean> acknowledged() {
    return TopicChecks.acknowledged();
  }

  /**
   * Check: a received message's value as UTF-8 text (a reply's, for {@link
   * TopicRequestReplyBuilder#check}); not found for a message without a value.
   *
   * <p>Example: {@code .check(messageValue().is("accepted"))}.
   */
  public static Check<TopicMessage, String> messageValue() {
    return TopicChecks.messageValue();
  }

  /**
   * Check: a received message's value as it is, a {@code byte[]}.
   *
   * <p>Example: {@code .check(messageBytes().transform(b -> b.length).gte(100))}.
   */
  public static Check<TopicMessage, byte[]> messageBytes() {
    return TopicChecks.messageBytes();
  }

  /**
   * Check: a received message's key as UTF-8 text; not found for a message without a key.
   *
   * <p>Example: {@code .check(messageKey().isEL("#{userId}"))}.
   */
  public static Check<TopicMessage, String> messageKey() {
    return TopicChecks.messageKey();
  }

  /**
   * Check: a received message's header as UTF-8 text (the last one of that name); not found when it
   * has none.
   *
   * <p>Example: {@code .check(messageHeader("status").is("ok"))}.
   */
  public static Check<TopicMessage, String> messageHeader(String name) {
    return TopicChecks.messageHeader(name);
  }

  /**
   * Check: a reply's latency in milliseconds, a {@code Long}, from its request's due time to its
   * arrival.
   *
   * <p>Example: {@code .check(messageLatency().lt(100))}.
   */
  public static Check<TopicMessage, Long> messageLatency() {
    return TopicChecks.messageLatency();
  }
}
