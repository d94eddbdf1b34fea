package io.fusillade.gatling.topic;

import io.fusillade.gatling.Expression;
import io.fusillade.gen.ValueSpec;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * A send request, with its key, value size and headers. Immutable, in Gatling's style: it wraps one
 * {@link TopicSend} and every method returns a new builder around a changed copy.
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
   */
  public TopicSendBuilder key(String key) {
    return key(key == null ? Expression.constant(null) : Expression.el(key));
  }

  /** The key computed from the session. */
  public TopicSendBuilder key(Function<Session, Object> key) {
    return key(Expression.of(key));
  }

  /** The key: its value's text in UTF-8 (a {@code byte[]} as it is). */
  public TopicSendBuilder key(Expression<?> key) {
    return new TopicSendBuilder(send.withKey(KeySource.of(key)));
  }

  /**
   * Keys from the generator module (for example a Zipf-distributed long: a few hot keys), seeded
   * with the protocol's seed and the topic.
   */
  public TopicSendBuilder keys(ValueSpec spec) {
    return new TopicSendBuilder(send.withKey(KeySource.generated(spec)));
  }

  /** A fixed value size in bytes (default 1024). */
  public TopicSendBuilder valueSize(int bytes) {
    return new TopicSendBuilder(send.withSize(SizeSource.fixed(bytes)));
  }

  /** Value sizes from an integer spec of the generator module, with a range. */
  public TopicSendBuilder valueSize(ValueSpec sizes) {
    return new TopicSendBuilder(send.withSize(SizeSource.of(sizes)));
  }

  /** A header on every message (besides Fusillade's own stamp). */
  public TopicSendBuilder header(String key, String value) {
    byte[] bytes = value == null ? null : value.getBytes(StandardCharsets.UTF_8);
    return new TopicSendBuilder(send.withHeader(new RecordHeader(key, bytes)));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    TopicSend s = send;
    return TopicProtocol.KEY.actionBuilder(
        (components, next) -> new TopicSendAction(s, components, next));
  }
}
