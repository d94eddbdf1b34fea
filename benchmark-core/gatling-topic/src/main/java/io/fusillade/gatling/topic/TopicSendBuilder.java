package io.fusillade.gatling.topic;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.fusillade.gen.ValueSpec;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A send request, with its key, value (from the session, or generated of a size), headers and
 * checks. Immutable, in Gatling's style: it wraps one {@link TopicSend} and every method returns a
 * new builder around a changed copy.
 */
public final class TopicSendBuilder implements ActionBuilder {
  private final TopicSend send;

  TopicSendBuilder(TopicSend send) {
    this.send = send;
  }

  /** What this builder holds (for tests). */
  TopicSend send() {
    return send;
  }

  /**
   * The key: a constant, or a Gatling expression ({@code "#{userId}"}); null for none. Messages
   * with a key go to the partition of its murmur2 hash, as with Kafka's default partitioner.
   *
   * <p>Example: {@code kafka("write").send("events").key("user-#{userId}")}.
   */
  public TopicSendBuilder key(String key) {
    return key(key == null ? Expression.constant(null) : Expression.el(key));
  }

  /**
   * The key computed from the session.
   *
   * <p>Example: {@code .key(session -> session.getLong("userId") % 100)}.
   */
  public TopicSendBuilder key(Function<Session, Object> key) {
    return key(Expression.of(key));
  }

  /**
   * The key: its value's text in UTF-8 (a {@code byte[]} as it is).
   *
   * <p>Example: {@code .key(Expression.el("#{userId}"))}.
   */
  public TopicSendBuilder key(Expression<?> key) {
    return new TopicSendBuilder(send.withKey(KeySource.of(key)));
  }

  /**
   * Keys from the generator module (for example a Zipf-distributed long: a few hot keys), seeded
   * with the protocol's seed and the topic.
   *
   * <p>Example: {@code .keys(ValueSpec.builder("key", ValueType.LONG).range(1L, 1000L).build())}.
   */
  public TopicSendBuilder keys(ValueSpec spec) {
    return new TopicSendBuilder(send.withKey(KeySource.generated(spec)));
  }

  /**
   * Generated values of a fixed size in bytes (the default: 1024), replacing a {@link
   * #value(String) value}.
   *
   * <p>Example: {@code kafka("write").send("events").valueSize(512)}.
   */
  public TopicSendBuilder valueSize(int bytes) {
    return new TopicSendBuilder(send.withSize(SizeSource.fixed(bytes)));
  }

  /**
   * Generated values whose sizes come from an integer spec of the generator module, with a range.
   *
   * <p>Example: {@code .valueSize(ValueSpec.builder("size", ValueType.INTEGER).range(100L,
   * 4000L).build())}.
   */
  public TopicSendBuilder valueSize(ValueSpec sizes) {
    return new TopicSendBuilder(send.withSize(SizeSource.of(sizes)));
  }

  /**
   * The value: a Gatling EL template rendered as UTF-8 text (a string without {@code #{} is sent
   * as it is), instead of generated values.
   *
   * <p>Example: {@code .value("{\"user\":\"#{userId}\",\"amount\":#{amount}}")}.
   */
  public TopicSendBuilder value(String value) {
    if (value == null) {
      throw new IllegalArgumentException("value(...) needs a value; valueSize(n) generates them");
    }
    return new TopicSendBuilder(send.withValue(Expression.text(value).map(TopicSendBuilder::utf8)));
  }

  /**
   * The same bytes for every message.
   *
   * <p>Example: {@code .value(Files.readAllBytes(Path.of("event.avro")))}.
   */
  public TopicSendBuilder value(byte[] value) {
    byte[] copy = value.clone();
    return new TopicSendBuilder(send.withValue(Expression.constant(copy)));
  }

  /**
   * The value computed from the session: a {@code byte[]} as it is, anything else as its text in
   * UTF-8.
   *
   * <p>Example: {@code .value(session -> mapper.writeValueAsBytes(order(session)))}.
   */
  public TopicSendBuilder value(Function<Session, ?> value) {
    return new TopicSendBuilder(
        send.withValue(Expression.<Object>of(value::apply).map(KeySource::bytes)));
  }

  /**
   * A header on every message (besides Fusillade's own stamp): its value a Gatling EL template, in
   * UTF-8.
   *
   * <p>Example: {@code .header("trace", "#{traceId}")}.
   */
  public TopicSendBuilder header(String key, String value) {
    Expression<byte[]> bytes =
        value == null
            ? Expression.constant(null)
            : Expression.text(value).map(TopicSendBuilder::utf8);
    return new TopicSendBuilder(send.withHeader(key, bytes));
  }

  /**
   * A header whose value is computed from the session ({@code byte[]} as it is, else UTF-8 text).
   *
   * <p>Example: {@code .header("attempt", session -> session.getInt("attempt"))}.
   */
  public TopicSendBuilder header(String key, Function<Session, ?> value) {
    return new TopicSendBuilder(
        send.withHeader(key, Expression.<Object>of(value::apply).map(KeySource::bytes)));
  }

  /**
   * Headers on every message, each value a Gatling EL template, in the map's order.
   *
   * <p>Example: {@code .headers(Map.of("source", "#{region}", "version", "2"))}.
   */
  public TopicSendBuilder headers(Map<String, String> headers) {
    TopicSendBuilder b = this;
    for (Map.Entry<String, String> e : headers.entrySet()) {
      b = b.header(e.getKey(), e.getValue());
    }
    return b;
  }

  /**
   * Checks on the broker's acknowledgement, in Gatling's idiom ({@link TopicDsl#partition()},
   * {@link TopicDsl#offset()}, {@link TopicDsl#acknowledged()}); the first that fails makes the
   * send KO with its message, and a check's {@code saveAs} keeps a value for the next requests.
   *
   * <p>Example: {@code .check(partition().saveAs("partition"), offset().gte(0))}.
   */
  @SafeVarargs
  public final TopicSendBuilder check(Check<TopicAck, ?>... checks) {
    return new TopicSendBuilder(send.withChecks(List.of(checks)));
  }

  /**
   * Checks run only for the sessions where a Gatling EL string is {@code true}.
   *
   * <p>Example: {@code .checkIf("#{audit}").then(offset().gte(0))}.
   */
  public CheckIf<TopicAck, TopicSendBuilder> checkIf(String condition) {
    return new CheckIf<>(
        CheckIf.el(condition), checks -> new TopicSendBuilder(send.withChecks(checks)));
  }

  /**
   * Checks run only for the sessions where {@code condition} holds.
   *
   * <p>Example: {@code .checkIf(session -> session.getBoolean("audit")).then(offset().gte(0))}.
   */
  public CheckIf<TopicAck, TopicSendBuilder> checkIf(Function<Session, Boolean> condition) {
    return new CheckIf<>(
        Expression.of(condition), checks -> new TopicSendBuilder(send.withChecks(checks)));
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    TopicSend s = send;
    return TopicProtocol.KEY.actionBuilder(
        (components, next) -> new TopicSendAction(s, components, next));
  }
}
