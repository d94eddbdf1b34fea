package io.fusillade.gatling.kafka;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.check.Check;
import io.fusillade.gatling.check.CheckIf;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * A send request: its key, value and headers ({@link TopicMessageBuilder}) and checks on the
 * broker's acknowledgement. Immutable, in Gatling's style.
 */
public final class TopicSendBuilder extends TopicMessageBuilder<TopicSendBuilder>
    implements ActionBuilder {
  TopicSendBuilder(TopicSend send) {
    super(send);
  }

  @Override
  TopicSendBuilder with(TopicSend changed) {
    return new TopicSendBuilder(changed);
  }

  /**
   * Checks on the broker's acknowledgement, in Gatling's idiom ({@link KafkaDsl#partition()},
   * {@link KafkaDsl#offset()}, {@link KafkaDsl#acknowledged()}); the first that fails makes the
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

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    TopicSend s = send;
    return KafkaProtocol.KEY.actionBuilder(
        (components, next) -> new TopicSendAction(s, components, next));
  }
}
