package io.fusillade.gatling.topic;

/** A named topic request waiting for what it does. */
public final class TopicRequest {
  private final String name;

  TopicRequest(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a topic request needs a name");
    }
    this.name = name;
  }

  /**
   * Sends one message to {@code topic}: no key, a 1 KiB value, unless set with the builder's
   * methods. The request's latency runs from the action's entry to the broker's acknowledgement.
   */
  public TopicSendBuilder send(String topic) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("request " + name + ": send(topic) needs a topic");
    }
    return new TopicSendBuilder(
        name, topic, KeySource.NONE, SizeSource.fixed(1024), java.util.List.of());
  }
}
