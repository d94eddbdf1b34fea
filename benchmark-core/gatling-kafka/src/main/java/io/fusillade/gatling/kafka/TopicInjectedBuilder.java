package io.fusillade.gatling.kafka;

import io.gatling.javaapi.core.ActionBuilder;

/** A write that fails on purpose ({@link TopicFaults}), ready to run. Immutable. */
public final class TopicInjectedBuilder implements ActionBuilder {
  private final String kind;
  private final String topic;

  TopicInjectedBuilder(String kind, String topic) {
    TopicFaults.requireKind(kind); // an unknown kind fails where the user wrote it
    this.kind = kind;
    this.topic = topic;
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    String k = kind;
    String t = topic;
    return KafkaProtocol.KEY.actionBuilder(
        (components, next) -> new InjectedSendAction(k, t, components, next));
  }
}
