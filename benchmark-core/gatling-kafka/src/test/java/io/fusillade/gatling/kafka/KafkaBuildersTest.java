package io.fusillade.gatling.kafka;

import static io.fusillade.gatling.BuilderAssertions.eachMethodReturnsAChangedCopy;
import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.messageValue;
import static io.fusillade.gatling.kafka.KafkaDsl.offset;
import static io.fusillade.gatling.kafka.KafkaDsl.partition;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.TestSessions;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.topic.TopicClientOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The topic DSL's builders, without Gatling running and without a broker. */
class KafkaBuildersTest {
  private static final KafkaProtocolBuilder SERVERS = kafka.bootstrapServers("127.0.0.1:9092");

  @Test
  void theProtocolStartsWithoutServers() {
    assertThat(kafka.settings().options()).isNull();
    String needsServers =
        "The topic protocol needs bootstrap servers first: kafka.bootstrapServers(\"host:9092\")";
    assertThatThrownBy(kafka::protocol).hasMessage(needsServers);
    assertThatThrownBy(() -> kafka.producer("acks", "1")).hasMessage(needsServers);
  }

  @Test
  void theServersTakeTheClientsDefaults() {
    TopicClientOptions options = SERVERS.settings().options();
    assertThat(options).isEqualTo(TopicClientOptions.of("127.0.0.1:9092"));
  }

  @Test
  void changingTheServersKeepsEverythingElse() {
    TopicClientOptions moved =
        SERVERS
            .producer("linger.ms", "5")
            .seed(7)
            .bootstrapServers("other:9092")
            .settings()
            .options();
    assertThat(moved.bootstrapServers()).isEqualTo("other:9092");
    assertThat(moved.seed()).isEqualTo(7);
    assertThat(moved.producer()).containsEntry("linger.ms", "5");
  }

  @Test
  void everyProtocolMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<KafkaProtocolBuilder>> methods =
        Map.of(
            "bootstrapServers", b -> b.bootstrapServers("other:9092"),
            "property", b -> b.property("client.dns.lookup", "use_all_dns_ips"),
            "producer", b -> b.producer("linger.ms", "5"),
            "consumer", b -> b.consumer("fetch.min.bytes", "2"),
            "topic", b -> b.topic(topic("events").partitions(4)),
            "seed", b -> b.seed(9),
            "drainTimeout", b -> b.drainTimeout(Duration.ofSeconds(1)),
            "readyTimeout", b -> b.readyTimeout(Duration.ofSeconds(2)));
    eachMethodReturnsAChangedCopy(SERVERS, KafkaProtocolBuilder::settings, methods);
  }

  @Test
  void aRequestNeedsANameAndASendATopic() {
    assertThatThrownBy(() -> kafka((String) null)).hasMessage("a topic request needs a name");
    assertThatThrownBy(() -> kafka("write").send(" "))
        .hasMessage("request write: send(topic) needs a topic");
  }

  @Test
  void aSendsDefaults() {
    TopicSend send = kafka("write").send("events").send();
    assertThat(send.topic()).isEqualTo("events");
    assertThat(send.key()).isSameAs(KeySource.NONE);
    assertThat(send.size()).isEqualTo(SizeSource.fixed(1024));
    assertThat(send.headers()).isEmpty();
    assertThat(send.value()).isNull();
    assertThat(send.checks()).isEmpty();
    assertThat(send.name().isConstant()).isTrue();
  }

  @Test
  void everySendMethodReturnsAChangedCopy() {
    ValueSpec sizes = ValueSpec.builder("size", ValueType.INTEGER).range(10L, 20L).build();
    ValueSpec keys = ValueSpec.builder("key", ValueType.LONG).range(1L, 9L).build();
    Map<String, UnaryOperator<TopicSendBuilder>> methods =
        Map.ofEntries(
            Map.entry("key(String)", b -> b.key("#{user}")),
            Map.entry("key(Function)", b -> b.key(session -> "k")),
            Map.entry("key(Expression)", b -> b.key(Expression.constant("k"))),
            Map.entry("keys", b -> b.keys(keys)),
            Map.entry("valueSize(int)", b -> b.valueSize(10)),
            Map.entry("valueSize(ValueSpec)", b -> b.valueSize(sizes)),
            Map.entry("value(String)", b -> b.value("#{user}")),
            Map.entry("value(byte[])", b -> b.value(new byte[] {1})),
            Map.entry("value(Function)", b -> b.value(session -> 1)),
            Map.entry("header(String)", b -> b.header("source", "test")),
            Map.entry("header(Function)", b -> b.header("n", session -> 1)),
            Map.entry("headers", b -> b.headers(Map.of("a", "b"))),
            Map.entry("check", b -> b.check(offset().gte(0))),
            Map.entry("checkIf", b -> b.checkIf("#{audit}").then(partition().is(0))));
    eachMethodReturnsAChangedCopy(kafka("write").send("events"), TopicSendBuilder::send, methods);
  }

  @Test
  void keysResolveToUtf8Bytes() {
    TopicSend send = kafka("write").send("events").key("#{user}").send();
    assertThat(send.key().key(TestSessions.with("user", 42)))
        .isEqualTo("42".getBytes(StandardCharsets.UTF_8));
    assertThat(kafka("w").send("t").key((String) null).send().key().key(TestSessions.empty()))
        .isNull();
    assertThatThrownBy(() -> send.key().key(TestSessions.empty()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("user");
  }

  @Test
  void valuesAndHeadersAreElTemplatesOrFunctionsInUtf8() {
    var session = TestSessions.with("user", "ann");
    TopicSend send =
        kafka("write")
            .send("events")
            .value("{\"user\":\"#{user}\"}")
            .header("who", "#{user}")
            .header("n", s -> 7)
            .send();
    assertThat(new String(send.value().resolve(session), StandardCharsets.UTF_8))
        .isEqualTo("{\"user\":\"ann\"}");
    assertThat(send.headers()).extracting(Map.Entry::getKey).containsExactly("who", "n");
    assertThat(send.headers().get(0).getValue().resolve(session))
        .isEqualTo("ann".getBytes(StandardCharsets.UTF_8));
    assertThat(send.headers().get(1).getValue().resolve(session))
        .isEqualTo("7".getBytes(StandardCharsets.UTF_8));
    byte[] raw = {0, 1, 2};
    assertThat(kafka("w").send("t").value(raw).send().value().resolve(session))
        .containsExactly(0, 1, 2);
    assertThat(kafka("w").send("t").value("x").valueSize(10).send().value())
        .as("generated values replace the session's")
        .isNull();
  }

  @Test
  void valueSizesAreChecked() {
    assertThatThrownBy(() -> kafka("w").send("t").valueSize(-1))
        .hasMessage("a value size must be >= 0, got -1");
  }

  @Test
  void requestNamesMayComeFromTheSession() {
    TopicSend send = kafka("write #{kind}").send("events").send();
    assertThat(send.name().resolve(TestSessions.with("kind", "a"))).isEqualTo("write a");
  }

  @Test
  void aRequestReplyNeedsItsReplyTopicAndSaysSo() {
    TopicRequestReplyBuilder ask = kafka("quote").requestReply("quotes");
    assertThat(ask.reply().topic()).isNull();
    assertThat(ask.reply().timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(ask.reply().header()).isEqualTo("fusillade.correlation");
    assertThatThrownBy(ask::asScala)
        .hasMessage("request quote: requestReply(quotes) needs .replyTopic(topic)");
    assertThatThrownBy(() -> ask.timeout(Duration.ZERO))
        .hasMessage("timeout(...) needs a positive duration");
    assertThatThrownBy(() -> kafka("quote").requestReply(""))
        .hasMessage("request quote: requestReply(topic) needs a topic");
  }

  @Test
  void everyRequestReplyMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<TopicRequestReplyBuilder>> methods =
        Map.ofEntries(
            Map.entry("replyTopic", b -> b.replyTopic("quote-replies")),
            Map.entry("timeout", b -> b.timeout(Duration.ofSeconds(2))),
            Map.entry("correlationHeader", b -> b.correlationHeader("cid")),
            Map.entry("check", b -> b.check(messageValue().is("ok"))),
            Map.entry("checkIf", b -> b.checkIf("#{audit}").then(messageValue().exists())));
    eachMethodReturnsAChangedCopy(
        kafka("quote").requestReply("quotes"), TopicRequestReplyBuilder::reply, methods);
    // what it sends is set as a send's is, on the same copy
    TopicRequestReplyBuilder keyed = kafka("quote").requestReply("quotes").key("#{user}");
    assertThat(keyed.send().key().key(TestSessions.with("user", 7)))
        .isEqualTo("7".getBytes(StandardCharsets.UTF_8));
    assertThat(keyed.replyTopic("r").header("h", "v").send().headers()).hasSize(1);
  }

  @Test
  void aConsumeTakesATopicATimeoutAndChecks() {
    TopicConsumeBuilder read = kafka("read").consume("events");
    assertThat(read.consume().topic()).isEqualTo("events");
    assertThat(read.consume().timeout()).isEqualTo(Duration.ofSeconds(10));
    assertThatThrownBy(() -> kafka("read").consume(null))
        .hasMessage("request read: consume(topic) needs a topic");
    assertThat(read.consume().group()).as("a group of the run's own").isNull();
    assertThat(read.group("billing").consume().group()).isEqualTo("billing");
    assertThatThrownBy(() -> read.group(" ")).hasMessage("group(...) needs a group id");
    Map<String, UnaryOperator<TopicConsumeBuilder>> methods =
        Map.of(
            "timeout", b -> b.timeout(Duration.ofSeconds(2)),
            "group", b -> b.group("billing"),
            "check", b -> b.check(messageValue().is("ok")),
            "checkIf", b -> b.checkIf("#{audit}").then(messageValue().exists()));
    eachMethodReturnsAChangedCopy(read, TopicConsumeBuilder::consume, methods);
  }

  @Test
  void aTopicDeclarationTakesBareFluentNames() {
    TopicBuilder events = topic("events").partitions(4).replicationFactor(3).consumers(2);
    assertThat(events.spec().partitions()).isEqualTo(4);
    assertThat(events.spec().replicationFactor()).isEqualTo((short) 3);
    assertThat(events.spec().consumers()).isEqualTo(2);
    Map<String, UnaryOperator<TopicBuilder>> methods =
        Map.of(
            "partitions", b -> b.partitions(8),
            "replicationFactor", b -> b.replicationFactor(2),
            "config", b -> b.config("retention.ms", "60000"),
            "create", b -> b.create(false),
            "consumers", b -> b.consumers(4),
            "group", b -> b.group("billing"),
            "processingTime", b -> b.processingTime(Duration.ofMillis(2)),
            "producers", b -> b.producers(3));
    eachMethodReturnsAChangedCopy(topic("events"), TopicBuilder::spec, methods);
    assertThat(SERVERS.topic(events).settings().options().topics()).containsExactly(events.spec());
  }
}
