package io.fusillade.topic;

import static io.fusillade.gatling.topic.TopicDsl.kafka;
import static io.fusillade.gatling.topic.TopicDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * For {@link TopicSimulationsTest}: sends at a constant {@code rate} (default 5000/s) and notes the
 * moment each send action is entered, then writes the number of sends per 100 ms to {@code
 * sendCounts.out}. A test-only probe: the reference simulations do not carry it.
 */
public class SmoothnessSimulation extends Simulation {
  private static final long[] times = new long[2_000_000];
  private static final AtomicInteger count = new AtomicInteger();

  {
    int rate = SimulationProperties.integer("rate", 5000);
    Duration duration = SimulationProperties.duration("duration", Duration.ofSeconds(10));
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    FusilladeRun.parameters(java.util.Map.of("rate", rate));
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .topic(topic("smooth").withPartitions(2).withConsumers(2));
    var writers =
        scenario("writers")
            .exec(
                session -> {
                  int i = count.getAndIncrement();
                  if (i < times.length) {
                    times[i] = System.nanoTime();
                  }
                  return session;
                })
            .exec(kafka("write").send("smooth").valueSize(1024));
    setUp(writers.injectOpen(constantUsersPerSec(rate).during(duration))).protocols(protocol);
  }

  @Override
  public void after() {
    int n = Math.min(count.get(), times.length);
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      first = Math.min(first, times[i]);
      last = Math.max(last, times[i]);
    }
    int buckets = (int) ((last - first) / 100_000_000L) + 1;
    long[] perBucket = new long[buckets];
    for (int i = 0; i < n; i++) {
      perBucket[(int) ((times[i] - first) / 100_000_000L)]++;
    }
    List<String> lines = new ArrayList<>();
    for (long c : perBucket) {
      lines.add(Long.toString(c));
    }
    try {
      Files.write(Path.of(System.getProperty("sendCounts.out", "sendCounts.out")), lines);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
