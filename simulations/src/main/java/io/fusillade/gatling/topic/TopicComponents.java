package io.fusillade.gatling.topic;

import io.fusillade.record.RunRecorder;
import io.fusillade.topic.TopicClient;
import io.gatling.core.CoreComponents;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The topic protocol's per-run state: the {@link TopicClient} (producer, consumer groups, lag
 * sampling, verifiers), opened before injection starts and closed at the end of the run.
 */
public final class TopicComponents implements ProtocolComponents, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TopicComponents.class);

  private final TopicProtocol protocol;
  private final CoreComponents core;
  private final RunRecorder recorder;
  private final TopicClient client;

  TopicComponents(TopicProtocol protocol, CoreComponents core, RunRecorder recorder) {
    this.protocol = protocol;
    this.core = core;
    this.recorder = recorder;
    // Topics checked, metadata fetched, consumers assigned: before the first message is sent.
    this.client = TopicClient.open(protocol.options(), recorder);
  }

  public TopicClient client() {
    return client;
  }

  public CoreComponents core() {
    return core;
  }

  public RunRecorder recorder() {
    return recorder;
  }

  @Override
  public Function1<Session, Session> onStart() {
    return session -> session;
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    return session -> BoxedUnit.UNIT;
  }

  /** Flushes the producer, drains the consumers, then runs the protocol's end hooks. */
  @Override
  public void close() {
    client.close();
    for (BiConsumer<TopicClient, RunRecorder> hook : protocol.endHooks()) {
      try {
        hook.accept(client, recorder);
      } catch (RuntimeException e) {
        LOG.warn("A topic end hook failed: {}", e.toString());
      }
    }
  }

  @Override
  public String toString() {
    return "TopicComponents[" + protocol.options() + "]";
  }
}
