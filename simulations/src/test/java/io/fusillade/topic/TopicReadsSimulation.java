package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.messageHeader;
import static io.fusillade.gatling.kafka.KafkaDsl.messageKey;
import static io.fusillade.gatling.kafka.KafkaDsl.messageLatency;
import static io.fusillade.gatling.kafka.KafkaDsl.messageValue;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * For {@link TopicReadsTest}: request-replies against one embedded broker, answered by an echo
 * responder ({@link Responder}: reads {@value #REQUESTS}, replies on {@value #REPLIES} with "echo "
 * and the request's value, its key and headers copied, the correlation id among them). Requests to
 * {@value #UNANSWERED} have no responder: each times out after {@link #TIMEOUT}. Readers consume
 * what writers send to {@value #EVENTS}, and wait in vain on {@value #QUIET}.
 */
public class TopicReadsSimulation extends Simulation {
  static final String REQUESTS = "requests";
  static final String REPLIES = "replies";
  static final String UNANSWERED = "unanswered";
  static final int ASKED = 20;
  static final int WRONG = 2;
  static final int TIMED_OUT = 3;
  static final Duration TIMEOUT = Duration.ofMillis(500);
  static final String EVENTS = "events";
  static final String QUIET = "quiet";
  static final int EVENTS_SENT = 20;
  static final int STARVED = 2;

  {
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", target.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(REQUESTS, 1, (short) 1),
                  new NewTopic(REPLIES, 2, (short) 1),
                  new NewTopic(UNANSWERED, 1, (short) 1),
                  new NewTopic(EVENTS, 2, (short) 1),
                  new NewTopic(QUIET, 1, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException("topics not created: " + e, e);
    }
    // Registered after the target: closed before it (last in, first out).
    FusilladeRun.closeAtEnd(new Responder(target.bootstrapServers()));

    var protocol = kafka.bootstrapServers(target.bootstrapServers());
    var ask =
        scenario("ask")
            .exec(
                kafka("ask")
                    .requestReply(REQUESTS)
                    .replyTopic(REPLIES)
                    .timeout(Duration.ofSeconds(10))
                    .key(session -> "user-" + session.userId())
                    .value(session -> "order " + session.userId())
                    .header("tenant", "acme")
                    .check(
                        messageValue().is(session -> "echo order " + session.userId()),
                        messageKey().is(session -> "user-" + session.userId()),
                        messageHeader("tenant").is("acme"),
                        messageLatency().lt(10_000)));
    var wrong =
        scenario("wrong")
            .exec(
                kafka("wrong")
                    .requestReply(REQUESTS)
                    .replyTopic(REPLIES)
                    .value("order")
                    .check(messageValue().is("refused")));
    var unanswered =
        scenario("unanswered")
            .exec(
                kafka("unanswered")
                    .requestReply(UNANSWERED)
                    .replyTopic(REPLIES)
                    .timeout(TIMEOUT)
                    .value("hello"));
    var writers =
        scenario("writers")
            .exec(
                kafka("write")
                    .send(EVENTS)
                    .key(session -> "user-" + session.userId())
                    .value("event")
                    .header("source", "eu"));
    var readers =
        scenario("readers")
            .exec(
                kafka("read")
                    .consume(EVENTS)
                    .timeout(Duration.ofSeconds(10))
                    .check(
                        messageValue().is("event"),
                        messageKey().validate("a user's key", k -> k.startsWith("user-")),
                        messageHeader("source").is("eu"),
                        messageLatency().gte(0).lt(10_000)));
    var starved = scenario("starved").exec(kafka("starved").consume(QUIET).timeout(TIMEOUT));
    setUp(
            writers.injectOpen(constantUsersPerSec(EVENTS_SENT / 2.0).during(2)),
            readers.injectOpen(constantUsersPerSec(EVENTS_SENT / 2.0).during(2)),
            starved.injectOpen(atOnceUsers(STARVED)),
            ask.injectOpen(constantUsersPerSec(ASKED / 2.0).during(2)),
            wrong.injectOpen(atOnceUsers(WRONG)),
            unanswered.injectOpen(atOnceUsers(TIMED_OUT)))
        .protocols(protocol);
  }

  /** Answers every request with "echo " and its value, copying its key and headers. */
  static final class Responder implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final Thread thread;
    private volatile boolean closing;

    Responder(String bootstrapServers) {
      consumer =
          new KafkaConsumer<>(
              Map.of("bootstrap.servers", bootstrapServers, "enable.auto.commit", "false"),
              new ByteArrayDeserializer(),
              new ByteArrayDeserializer());
      producer =
          new KafkaProducer<>(
              Map.of("bootstrap.servers", bootstrapServers, "linger.ms", "0"),
              new ByteArraySerializer(),
              new ByteArraySerializer());
      TopicPartition requests = new TopicPartition(REQUESTS, 0);
      consumer.assign(List.of(requests));
      consumer.seekToBeginning(List.of(requests));
      thread = new Thread(this::run, "echo-responder");
      thread.setDaemon(true);
      thread.start();
    }

    private void run() {
      try {
        while (!closing) {
          for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(20))) {
            byte[] value =
                ("echo " + new String(r.value(), StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            producer.send(new ProducerRecord<>(REPLIES, null, r.key(), value, r.headers()));
          }
        }
      } catch (WakeupException e) {
        // closing
      }
    }

    @Override
    public void close() throws InterruptedException {
      closing = true;
      consumer.wakeup();
      thread.join(5000);
      consumer.close(Duration.ofSeconds(1));
      producer.close(Duration.ofSeconds(1));
    }
  }
}
