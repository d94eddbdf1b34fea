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
 * embedded broker (its own JVM), stops the broker {@link #STOP_AFTER} into the run and starts it
 * again on the same port and log directory {@link #DOWN_FOR} later. Prints {@value
 * #RESTARTED}{@code <epoch ms>} once the broker runs again.
 */
public class BrokerRestartSimulation extends Simulation {
  static final int RATE = 100;
  static final Duration DURATION = Duration.ofSeconds(20);
  static final Duration STOP_AFTER = Duration.ofSeconds(4);
  static final Duration DOWN_FOR = Duration.ofSeconds(4);
  static final String RESTARTED = "broker restarted at epoch ms ";

  {
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .topic(topic("outage").partitions(2).consumers(1))
            // after the restart the consumer rejoins its group: on a loaded machine that takes
            // seconds
            .drainTimeout(Duration.ofSeconds(20));
    var writers = scenario("writers").exec(kafka("write").send("outage").valueSize(512));
    var operator =
        scenario("operator")
            .exec(
                session -> {
                  // Off the event loop: stopping and starting a broker take seconds.
                  Thread operate =
                      new Thread(
                          () -> {
                            try {
                              target.local().orElseThrow().stopBroker(0);
                              Thread.sleep(DOWN_FOR.toMillis());
                              target.local().orElseThrow().restartBroker(0);
                              System.out.println(RESTARTED + System.currentTimeMillis());
                            } catch (InterruptedException e) {
                              Thread.currentThread().interrupt();
                            }
                          },
                          "stop-and-restart-broker");
                  operate.setDaemon(true);
                  operate.start();
                  return session;
                });
    setUp(
            writers.injectOpen(constantUsersPerSec(RATE).during(DURATION)),
            operator.injectOpen(nothingFor(STOP_AFTER), atOnceUsers(1)))
        .protocols(protocol);
  }
}
