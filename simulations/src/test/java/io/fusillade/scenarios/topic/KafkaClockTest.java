package io.fusillade.scenarios.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.ClockOffset;
import io.fusillade.local.LocalKafka;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A broker's append time read as the clock the injectors of a topic test share. */
@Tag("slow")
class KafkaClockTest {
  private static LocalKafka kafka;

  @BeforeAll
  static void start() {
    kafka = LocalKafka.start();
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aBrokerOnThisMachineKeepsThisMachinesTime() {
    ClockOffset offset = KafkaClock.offset(kafka.bootstrapServers(), Map.of());

    assertThat(offset).as("the clock was read").isNotNull();
    assertThat(offset.reference()).isEqualTo("Kafka at " + kafka.bootstrapServers());
    // whole milliseconds: half of one more uncertain than the round trip alone
    assertThat(offset.uncertaintyMicros()).isGreaterThanOrEqualTo(500);
    assertThat(Math.abs(offset.offsetMicros()))
        .as("one machine, one clock")
        .isLessThan(25_000 + offset.uncertaintyMicros());
  }

  /**
   * The probe topic's type is asked again while the broker does not know the topic, as when another
   * injector created it a moment ago: a topic created 1.5 s after the first question is answered,
   * and one that never comes fails with the broker's answer once the patience is spent.
   */
  @Test
  void aTopicTheBrokerDoesNotKnowYetIsAskedAgainUntilItDoesOrThePatienceEnds() throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      CompletableFuture<Void> later =
          CompletableFuture.runAsync(
              () -> {
                try {
                  Thread.sleep(1_500);
                  admin
                      .createTopics(
                          List.of(
                              new NewTopic("clock-later", Optional.of(1), Optional.empty())
                                  .configs(Map.of("message.timestamp.type", "LogAppendTime"))))
                      .all()
                      .get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      long started = System.nanoTime();
      assertThat(KafkaClock.timestampType(admin, "clock-later", Duration.ofSeconds(30)))
          .isEqualTo("LogAppendTime");
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("answered once the topic existed")
          .isGreaterThanOrEqualTo(Duration.ofMillis(1_400));
      later.get(30, TimeUnit.SECONDS);

      assertThatThrownBy(
              () -> KafkaClock.timestampType(admin, "clock-never", Duration.ofSeconds(1)))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
    }
  }

  @Test
  void aClusterThatDoesNotAnswerLeavesTheInjectorOnItsOwnClock() {
    assertThat(
            KafkaClock.offset(
                "127.0.0.1:9",
                Map.of("request.timeout.ms", "1000", "default.api.timeout.ms", "2000")))
        .isNull();
  }
}
