package io.fusillade.gatling.topic;

import io.fusillade.gen.ValueSpec;
import io.gatling.core.action.Action;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.ActionBuilder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/** A send request, with its key, value size and headers. Immutable. */
public final class TopicSendBuilder implements ActionBuilder {
  private final String name;
  private final String topic;
  private final KeySource key;
  private final SizeSource size;
  private final List<Header> headers;

  TopicSendBuilder(
      String name, String topic, KeySource key, SizeSource size, List<Header> headers) {
    this.name = name;
    this.topic = topic;
    this.key = key;
    this.size = size;
    this.headers = List.copyOf(headers);
  }

  /**
   * The key: a constant, or a Gatling expression ({@code "#{userId}"}). Messages with a key go to
   * the partition of its murmur2 hash, as with Kafka's default partitioner.
   */
  public TopicSendBuilder key(String key) {
    return new TopicSendBuilder(name, topic, KeySource.of(key), size, headers);
  }

  /** The key computed from the session. */
  public TopicSendBuilder key(Function<io.gatling.javaapi.core.Session, Object> key) {
    return new TopicSendBuilder(name, topic, KeySource.of(key), size, headers);
  }

  /**
   * Keys from the generator module (for example a Zipf-distributed long: a few hot keys), seeded
   * with the protocol's seed and the topic.
   */
  public TopicSendBuilder keys(ValueSpec spec) {
    return new TopicSendBuilder(name, topic, KeySource.generated(spec), size, headers);
  }

  /** A fixed value size in bytes (default 1024). */
  public TopicSendBuilder valueSize(int bytes) {
    return new TopicSendBuilder(name, topic, key, SizeSource.fixed(bytes), headers);
  }

  /** Value sizes from an integer spec of the generator module, with a range. */
  public TopicSendBuilder valueSize(ValueSpec sizes) {
    return new TopicSendBuilder(name, topic, key, SizeSource.of(sizes), headers);
  }

  /** A header on every message (besides Fusillade's own stamp). */
  public TopicSendBuilder header(String key, String value) {
    List<Header> list = new ArrayList<>(headers);
    list.add(new RecordHeader(key, value == null ? null : value.getBytes(StandardCharsets.UTF_8)));
    return new TopicSendBuilder(name, topic, this.key, size, list);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new io.gatling.core.action.builder.ActionBuilder() {
      @Override
      public Action build(ScenarioContext ctx, Action next) {
        TopicComponents components = ctx.protocolComponentsRegistry().components(TopicProtocol.KEY);
        return new TopicSendAction(name, topic, key, size, headers, components, next);
      }
    };
  }
}
