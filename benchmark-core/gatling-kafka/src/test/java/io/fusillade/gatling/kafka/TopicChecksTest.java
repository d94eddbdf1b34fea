package io.fusillade.gatling.kafka;

import static io.fusillade.gatling.kafka.KafkaDsl.acknowledged;
import static io.fusillade.gatling.kafka.KafkaDsl.messageHeader;
import static io.fusillade.gatling.kafka.KafkaDsl.messageKey;
import static io.fusillade.gatling.kafka.KafkaDsl.messageLatency;
import static io.fusillade.gatling.kafka.KafkaDsl.messageValue;
import static io.fusillade.gatling.kafka.KafkaDsl.offset;
import static io.fusillade.gatling.kafka.KafkaDsl.partition;
import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.Saves;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The topic extractors on acknowledgements as the producer reports them (where the broker puts a
 * message is tested against a broker in simulations' topic tests).
 */
class TopicChecksTest {
  private static final Session SESSION = Session$.MODULE$.apply("test", 1L, null);
  private static final TopicAck ACKED = new TopicAck(2, 41, null);
  private static final TopicAck REFUSED = new TopicAck(1, -1, "RecordTooLargeException");

  private static String verify(Check<TopicAck, ?> check, TopicAck ack) {
    return check.verify(ack, SESSION, new Saves());
  }

  @Test
  void partitionAndOffsetOfAnAcknowledgedMessage() {
    assertThat(verify(partition().is(2), ACKED)).isNull();
    assertThat(verify(partition().in(0, 1), ACKED)).isEqualTo("partition.in[0, 1]: found 2");
    assertThat(verify(offset().gte(0), ACKED)).isNull();
    assertThat(verify(offset().gte(0), REFUSED)).isEqualTo("offset.gte(0): found nothing");
    Saves saves = new Saves();
    assertThat(offset().saveAs("offset").verify(ACKED, SESSION, saves)).isNull();
    assertThat(saves.applyTo(SESSION).attributes().get("offset").get()).isEqualTo(41L);
  }

  @Test
  void acknowledgedReadsTheFailureItself() {
    assertThat(verify(acknowledged().is(true), ACKED)).isNull();
    assertThat(verify(acknowledged().is(false), REFUSED)).isNull();
    assertThat(acknowledged().needs()).containsExactly(TopicChecks.ERROR);
    assertThat(partition().needs()).isEmpty();
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aReceivedMessagesKeyValueHeadersAndLatency() {
    TopicMessage reply =
        new TopicMessage(
            "replies",
            0,
            5,
            utf8("u1"),
            utf8("accepted"),
            Map.of("status", utf8("ok")),
            42_500_000);
    assertThat(messageValue().is("accepted").verify(reply, SESSION, new Saves())).isNull();
    assertThat(messageKey().is("u2").verify(reply, SESSION, new Saves()))
        .isEqualTo("messageKey.is(u2): found u1");
    assertThat(messageHeader("status").is("ok").verify(reply, SESSION, new Saves())).isNull();
    assertThat(messageHeader("trace").exists().verify(reply, SESSION, new Saves()))
        .isEqualTo("messageHeader(trace).exists: found nothing");
    assertThat(messageLatency().is(42L).verify(reply, SESSION, new Saves())).isNull();
    TopicMessage tombstone = new TopicMessage("replies", 0, 6, null, null, Map.of(), 1);
    assertThat(messageValue().exists().verify(tombstone, SESSION, new Saves()))
        .isEqualTo("messageValue.exists: found nothing");
  }
}
