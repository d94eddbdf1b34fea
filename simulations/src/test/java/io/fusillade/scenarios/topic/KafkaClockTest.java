package io.fusillade.scenarios.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.ClockOffset;
import io.fusillade.local.LocalKafka;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A broker's append time read as the clock the injectors of a topic test share. */
@Tag("slow")
class KafkaClockTest {
  @Test
  void aBrokerOnThisMachineKeepsThisMachinesTime() {
    try (LocalKafka kafka = LocalKafka.start()) {
      ClockOffset offset = KafkaClock.offset(kafka.bootstrapServers(), Map.of());

      assertThat(offset).as("the clock was read").isNotNull();
      assertThat(offset.reference()).isEqualTo("Kafka at " + kafka.bootstrapServers());
      // whole milliseconds: half of one more uncertain than the round trip alone
      assertThat(offset.uncertaintyMicros()).isGreaterThanOrEqualTo(500);
      assertThat(Math.abs(offset.offsetMicros()))
          .as("one machine, one clock")
          .isLessThan(25_000 + offset.uncertaintyMicros());
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
