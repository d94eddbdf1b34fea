package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.scenarios.topic.KafkaTarget;
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
 * For {@link TopicSimulationsTest}: sends {@code messageSize} bytes (default 100) at a constant
 * {@code rate} (default 5000/s) to one embedded broker (its own JVM) after a {@code warmUp} ramp
 * (4s), and notes, for {@code duration} (8s), the moment each send action is entered, then writes
 * the number of sends per 100 ms to {@code sendCounts.out}. A test-only probe: the reference
 * simulations do not carry it.
 */
public class SmoothnessSimulation extends Simulation {
  private static final long[] times = new long[2_000_000];
  private static final AtomicInteger count = new AtomicInteger();

  {
    int rate = SimulationProperties.integer("rate", 5000);
    Duration warmUp = SimulationProperties.duration("warmUp", Duration.ofSeconds(4));
    Duration duration = SimulationProperties.duration("duration", Duration.ofSeconds(8));
    KafkaTarget target = KafkaTarget.fromProperties(1);
    FusilladeRun.closeAtEnd(target);
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            // No readers and small messages: the generator is measured, not the machine's
            // spare CPU (on 2 cores, a broker and readers starve the event loops).
            .topic(topic("smooth").partitions(2));
    var warm = scenario("warm-up").exec(kafka("write").send("smooth").valueSize(100));
    var writers =
        scenario("measured")
            .exec(
                session -> {
                  if (session.scenario().equals("measured")) {
                    int i = count.getAndIncrement();
                    if (i < times.length) {
                      times[i] = System.nanoTime();
                    }
                  }
                  return session;
                })
            .exec(
                kafka("write")
                    .send("smooth")
                    .valueSize(SimulationProperties.integer("messageSize", 100)));
    // A warm-up ramp first (JIT, connections), as any latency run should have; then the measure.
    setUp(
            warm.injectOpen(rampUsersPerSec(rate / 10.0).to(rate).during(warmUp))
                .andThen(writers.injectOpen(constantUsersPerSec(rate).during(duration))))
        .protocols(protocol);
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
