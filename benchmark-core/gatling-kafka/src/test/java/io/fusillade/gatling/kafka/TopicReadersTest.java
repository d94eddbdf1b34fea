package io.fusillade.gatling.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A topic's one reader (a consume's {@link MessageFeed}, a request-reply's {@link ReplyConsumer})
 * against a real broker. A consume reads in a group of the run's own or in the group it names. It
 * never leaves a virtual user waiting: a wait whose deadline passes is a timeout, a wait when the
 * reader stops is told why, and a wait that comes after it stopped is told at once — no one would
 * expire it later, and the user would hang to the end of the run.
 */
@Tag("slow")
class TopicReadersTest {
  private static final String EVENTS = "events";
  private static final String REPLIES = "replies";
  private static final String BILLING = "billing-events";
  private static final long FAR = TimeUnit.MINUTES.toNanos(5);

  private static LocalKafka kafka;
  private static Map<String, Object> consumer;

  @BeforeAll
  static void broker() throws Exception {
    kafka = LocalKafka.start();
    consumer = Map.of("bootstrap.servers", kafka.bootstrapServers());
    try (Admin admin = Admin.create(consumer)) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(EVENTS, 2, (short) 1),
                  new NewTopic(REPLIES, 2, (short) 1),
                  new NewTopic(BILLING, 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aConsumeTimesOutThenIsToldTheRunEndedAndAfterThatIsToldAtOnce() throws Exception {
    Outcome timedOut = new Outcome();
    Outcome pending = new Outcome();
    Outcome late = new Outcome();
    MessageFeed feed = new MessageFeed(consumer, EVENTS, null, Duration.ofSeconds(30));
    try {
      feed.next(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200), timedOut.feedWaiter());
      assertThat(timedOut.reason()).as("a deadline that passed").isEqualTo(Outcome.DEADLINE);
      feed.next(System.nanoTime() + FAR, pending.feedWaiter());
    } finally {
      feed.close();
    }
    assertThat(pending.reason()).isEqualTo("the run ended before a message of events came");

    feed.next(System.nanoTime() + FAR, late.feedWaiter());
    assertThat(late.now()).as("told on the caller's thread, before next returns").isTrue();
    assertThat(late.reason()).isEqualTo("the run ended before a message of events came");
  }

  @Test
  void aRequestReplyTimesOutThenIsToldTheRunEndedAndAfterThatIsToldAtOnce() throws Exception {
    Outcome timedOut = new Outcome();
    Outcome pending = new Outcome();
    Outcome late = new Outcome();
    ReplyConsumer replies = new ReplyConsumer(consumer, REPLIES, "correlation");
    try {
      replies.await(
          replies.nextId(),
          System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200),
          timedOut.replyWaiter());
      assertThat(timedOut.reason()).as("a deadline that passed").isEqualTo(Outcome.DEADLINE);
      replies.await(replies.nextId(), System.nanoTime() + FAR, pending.replyWaiter());
    } finally {
      replies.close();
    }
    assertThat(pending.reason()).isEqualTo("the run ended before the reply on replies came");

    replies.await(replies.nextId(), System.nanoTime() + FAR, late.replyWaiter());
    assertThat(late.now()).as("told on the caller's thread, before await returns").isTrue();
    assertThat(late.reason()).isEqualTo("the run ended before the reply on replies came");
  }

  @Test
  void aConsumeInANamedGroupReadsAsAMemberOfThatGroup() throws Exception {
    MessageFeed feed = new MessageFeed(consumer, BILLING, "billing", Duration.ofSeconds(30));
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(consumer, new ByteArraySerializer(), new ByteArraySerializer())) {
      CompletableFuture<String> read = new CompletableFuture<>();
      feed.next(
          System.nanoTime() + TimeUnit.SECONDS.toNanos(30),
          new MessageFeed.Waiter() {
            @Override
            public void received(ConsumerRecord<byte[], byte[]> message, long arrivedNanos) {
              read.complete(new String(message.value(), StandardCharsets.UTF_8));
            }

            @Override
            public void failed(long nowNanos, String reason) {
              read.complete("failed: " + reason);
            }
          });
      producer
          .send(new ProducerRecord<>(BILLING, "invoice 7".getBytes(StandardCharsets.UTF_8)))
          .get(30, TimeUnit.SECONDS);
      assertThat(read.get(30, TimeUnit.SECONDS)).isEqualTo("invoice 7");
      try (Admin admin = Admin.create(consumer)) {
        assertThat(
                admin
                    .describeConsumerGroups(List.of("billing"))
                    .all()
                    .get(30, TimeUnit.SECONDS)
                    .get("billing")
                    .members())
            .as("the feed is the named group's one member")
            .hasSize(1);
      }
    } finally {
      feed.close();
    }
  }

  /** What one waiting user was told: a message (a failure here), or why none came. */
  private static final class Outcome {
    static final String DEADLINE = "(its deadline passed)";
    private final CompletableFuture<String> told = new CompletableFuture<>();

    MessageFeed.Waiter feedWaiter() {
      return new MessageFeed.Waiter() {
        @Override
        public void received(ConsumerRecord<byte[], byte[]> message, long arrivedNanos) {
          told.completeExceptionally(new AssertionError("a message on an empty topic"));
        }

        @Override
        public void failed(long nowNanos, String reason) {
          told.complete(reason == null ? DEADLINE : reason);
        }
      };
    }

    ReplyConsumer.Waiter replyWaiter() {
      return new ReplyConsumer.Waiter() {
        @Override
        public void replied(ConsumerRecord<byte[], byte[]> reply, long arrivedNanos) {
          told.completeExceptionally(new AssertionError("a reply no one sent"));
        }

        @Override
        public void failed(long nowNanos, String reason) {
          told.complete(reason == null ? DEADLINE : reason);
        }
      };
    }

    boolean now() {
      return told.isDone();
    }

    String reason() throws Exception {
      return told.get(30, TimeUnit.SECONDS);
    }
  }
}
