package io.fusillade.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.fusillade.gatling.kafka.KafkaDsl.topic;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.limit.LimitSettings;
import io.fusillade.record.SettingValues;
import io.fusillade.scenarios.topic.KafkaTarget;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * For {@link TopicLimitTest}: the limit search of writes to a topic whose one reader takes {@link
 * #PROCESSING} per message, so it reads at most 1 s / {@link #PROCESSING} messages a second; the
 * search's settings come from {@code -Dfusillade.limit.*}.
 */
public class TopicLimitSimulation extends Simulation {
  static final Duration PROCESSING = Duration.ofMillis(4);

  {
    KafkaTarget target = KafkaTarget.fromProperties(1);
    io.fusillade.gatling.FusilladeRun.closeAtEnd(target);
    var protocol =
        kafka
            .bootstrapServers(target.bootstrapServers())
            .topic(topic("slow").partitions(1).consumers(1).processingTime(PROCESSING));
    LimitSettings settings =
        LimitSettings.fromProperties(SettingValues.systemProperties(), LimitSettings.DEFAULTS);
    setUp(
            FusilladeLimit.search(settings)
                .population("writers", exec(kafka("write").send("slow").valueSize(100))))
        .protocols(protocol);
  }
}
