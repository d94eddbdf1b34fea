package io.fusillade.topic;

import static io.fusillade.gatling.topic.TopicDsl.kafka;
import static io.fusillade.gatling.topic.TopicDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.local.LocalKafka;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * For {@link TopicStallTest}: writes at {@link #RATE}/s for {@link #DURATION} to one embedded
 * broker (in its own JVM) and read back by one consumer; {@link #STALL_AT} into the run the broker
 * is frozen (SIGSTOP) for {@link #STALL}, then goes on (SIGCONT). Nothing fails: every send made
 * meanwhile is answered after the stall.
 */
public class BrokerStallSimulation extends Simulation {
  static final int RATE = 100;
  static final Duration DURATION = Duration.ofSeconds(10);
  static final Duration STALL_AT = Duration.ofSeconds(4);
  static final Duration STALL = Duration.ofSeconds(2);

  {
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    LocalKafka broker = target.local().orElseThrow();
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .topic(topic("stall").withPartitions(2).withConsumers(1));
    var writers = scenario("writers").exec(kafka("write").send("stall").valueSize(512));
    var operator =
        scenario("operator")
            .exec(
                session -> {
                  // Off the event loop: the stall is a sleep.
                  Thread stall =
                      new Thread(
                          () -> {
                            broker.pauseBroker(0);
                            try {
                              Thread.sleep(STALL.toMillis());
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            } finally {
                              broker.resumeBroker(0);
                            }
                          },
                          "stall-broker");
                  stall.setDaemon(true);
                  stall.start();
                  return session;
                });
    setUp(
            writers.injectOpen(constantUsersPerSec(RATE).during(DURATION)),
            operator.injectOpen(nothingFor(STALL_AT), atOnceUsers(1)))
        .protocols(protocol);
  }
}
