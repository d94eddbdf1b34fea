package io.fusillade.cli;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.filter.Filter;
import ch.qos.logback.core.spi.FilterReply;

/**
 * Keeps the console free of the Kafka client's warnings about a missing topic when the topic is
 * missing on purpose: the producer of injected {@code missing topic} writes ({@code
 * io.fusillade.gatling.kafka.TopicFaults}) is told so by every metadata answer, several times a
 * second. Its failures are in the run's results, under {@code injected missing topic}.
 */
public final class InjectedClientWarnings extends Filter<ILoggingEvent> {
  /** The client id the Kafka client puts in front of that producer's log lines. */
  static final String CLIENT = "clientId=fusillade-injected-missing-topic";

  @Override
  public FilterReply decide(ILoggingEvent event) {
    String message = event.getMessage();
    return message != null && message.contains(CLIENT) ? FilterReply.DENY : FilterReply.NEUTRAL;
  }
}
