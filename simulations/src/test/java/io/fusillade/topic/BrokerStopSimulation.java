package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * For {@link TopicBrokerFaultsTest}: writes at {@link #RATE}/s for {@link #DURATION} to one
 * embedded broker and stops the broker {@link #STOP_AFTER} into the run.
 */
public class BrokerStopSimulation extends Simulation {
  static final int RATE = 100;
  static final Duration DURATION = Duration.ofSeconds(12);
  static final Duration STOP_AFTER = Duration.ofSeconds(4);
  static final Duration DELIVERY_TIMEOUT = Duration.ofSeconds(3);
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

  {
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .producer("delivery.timeout.ms", Long.toString(DELIVERY_TIMEOUT.toMillis()))
            .producer("request.timeout.ms", "1000")
            .topic(topic("fragile").partitions(2).consumers(1))
            .drainTimeout(DRAIN_TIMEOUT);
    var writers = scenario("writers").exec(kafka("write").send("fragile").valueSize(512));
    var operator =
        scenario("operator")
            .exec(
                session -> {
                  // Off the event loop: a controlled shutdown takes a moment.
                  Thread stopper =
                      new Thread(() -> target.local().orElseThrow().stopBroker(0), "stop-broker");
                  stopper.setDaemon(true);
                  stopper.start();
                  return session;
                });
    setUp(
            writers.injectOpen(constantUsersPerSec(RATE).during(DURATION)),
            operator.injectOpen(nothingFor(STOP_AFTER), atOnceUsers(1)))
        .protocols(protocol);
  }
}
