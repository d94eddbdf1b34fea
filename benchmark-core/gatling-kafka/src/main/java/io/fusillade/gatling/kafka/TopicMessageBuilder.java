package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gen.ValueSpec;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;

/**
 * What every request that writes a message sets: its key, value (from the session, or generated of
 * a size) and headers. Immutable, in Gatling's style: it wraps one {@link TopicSend} and every
 * method returns a new builder around a changed copy.
 *
 * @param <B> the request's own builder ({@link TopicSendBuilder}, {@link TopicRequestReplyBuilder})
 */
public abstract class TopicMessageBuilder<B extends TopicMessageBuilder<B>> {
  final TopicSend send;

  TopicMessageBuilder(TopicSend send) {
    this.send = send;
  }

  /** What this builder holds (for tests). */
  TopicSend send() {
    return send;
  }

  /** A builder of the same kind around {@code changed}. */
  abstract B with(TopicSend changed);

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /**
   * The key: a constant, or a Gatling expression ({@code "#{userId}"}); null for none. Messages
   * with a key go to the partition of its murmur2 hash, as with Kafka's default partitioner.
   *
   * <p>Example: {@code kafka("write").send("events").key("user-#{userId}")}.
   */
  public B key(String key) {
    return key(key == null ? Expression.constant(null) : Expression.el(key));
  }

  /**
   * The key computed from the session.
   *
   * <p>Example: {@code .key(session -> session.getLong("userId") % 100)}.
   */
  public B key(Function<Session, Object> key) {
    return key(Expression.of(key));
  }

  /**
   * The key: its value's text in UTF-8 (a {@code byte[]} as it is).
   *
   * <p>Example: {@code .key(Expression.el("#{userId}"))}.
   */
  public B key(Expression<?> key) {
    return with(send.withKey(KeySource.of(key)));
  }

  /**
   * Keys from the generator module (for example a Zipf-distributed long: a few hot keys), seeded
   * with the protocol's seed and the topic.
   *
   * <p>Example: {@code .keys(ValueSpec.builder("key", ValueType.LONG).range(1L, 1000L).build())}.
   */
  public B keys(ValueSpec spec) {
    return with(send.withKey(KeySource.generated(spec)));
  }

  /**
   * Generated values of a fixed size in bytes (the default: 1024), replacing a {@link
   * #value(String) value}.
   *
   * <p>Example: {@code kafka("write").send("events").valueSize(512)}.
   */
  public B valueSize(int bytes) {
    return with(send.withSize(SizeSource.fixed(bytes)));
  }

  /**
   * Generated values whose sizes come from an integer spec of the generator module, with a range.
   *
   * <p>Example: {@code .valueSize(ValueSpec.builder("size", ValueType.INTEGER).range(100L,
   * 4000L).build())}.
   */
  public B valueSize(ValueSpec sizes) {
    return with(send.withSize(SizeSource.of(sizes)));
  }

  /**
   * The value: a Gatling EL template rendered as UTF-8 text (a string without {@code #{} is sent
   * as it is), instead of generated values.
   *
   * <p>Example: {@code .value("{\"user\":\"#{userId}\",\"amount\":#{amount}}")}.
   */
  public B value(String value) {
    if (value == null) {
      throw new IllegalArgumentException("value(...) needs a value; valueSize(n) generates them");
    }
    return with(send.withValue(Expression.text(value).map(TopicMessageBuilder::utf8)));
  }

  /**
   * The same bytes for every message.
   *
   * <p>Example: {@code .value(Files.readAllBytes(Path.of("event.avro")))}.
   */
  public B value(byte[] value) {
    byte[] copy = value.clone();
    return with(send.withValue(Expression.constant(copy)));
  }

  /**
   * The value computed from the session: a {@code byte[]} as it is, anything else as its text in
   * UTF-8.
   *
   * <p>Example: {@code .value(session -> mapper.writeValueAsBytes(order(session)))}.
   */
  public B value(Function<Session, ?> value) {
    return with(send.withValue(Expression.<Object>of(value::apply).map(KeySource::bytes)));
  }

  /**
   * A header on every message (besides Fusillade's own stamp): its value a Gatling EL template, in
   * UTF-8.
   *
   * <p>Example: {@code .header("trace", "#{traceId}")}.
   */
  public B header(String key, String value) {
    Expression<byte[]> bytes =
        value == null
            ? Expression.constant(null)
            : Expression.text(value).map(TopicMessageBuilder::utf8);
    return with(send.withHeader(key, bytes));
  }

  /**
   * A header whose value is computed from the session ({@code byte[]} as it is, else UTF-8 text).
   *
   * <p>Example: {@code .header("attempt", session -> session.getInt("attempt"))}.
   */
  public B header(String key, Function<Session, ?> value) {
    return with(send.withHeader(key, Expression.<Object>of(value::apply).map(KeySource::bytes)));
  }

  /**
   * Headers on every message, each value a Gatling EL template, in the map's order.
   *
   * <p>Example: {@code .headers(Map.of("source", "#{region}", "version", "2"))}.
   */
  public B headers(Map<String, String> headers) {
    B b = self();
    for (Map.Entry<String, String> e : headers.entrySet()) {
      b = b.header(e.getKey(), e.getValue());
    }
    return b;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
