package io.fusillade.topic;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Creates topics when missing, or checks they exist, with errors a user can act on. */
final class TopicAdmin {
  private TopicAdmin() {}

  /**
   * Makes sure the topic exists.
   *
   * @return its partition count (an existing topic keeps its own)
   * @throws FusilladeException naming the topic and bootstrap servers when it is missing and must
   *     not be created, or when Kafka cannot be reached
   */
  static int ensure(Admin admin, TopicSpec spec, String bootstrap, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      Optional<TopicDescription> existing = describe(admin, spec.name(), timeout);
      if (existing.isPresent()) {
        return existing.get().partitions().size();
      }
      if (!spec.create()) {
        throw new FusilladeException(
            "topic '" + spec.name() + "' does not exist on " + bootstrap + " (creation is off)");
      }
      try {
        admin
            .createTopics(
                List.of(
                    new NewTopic(spec.name(), spec.partitions(), spec.replicationFactor())
                        .configs(Map.copyOf(spec.configs()))))
            .all()
            .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (ExecutionException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw new FusilladeException(
              "cannot create topic '"
                  + spec.name()
                  + "' on "
                  + bootstrap
                  + ": "
                  + e.getCause().getMessage(),
              e.getCause());
        }
      }
      // Creation is asynchronous on the brokers: wait until every partition has a leader.
      while (true) {
        Optional<TopicDescription> created = describe(admin, spec.name(), timeout);
        if (created.isPresent()
            && created.get().partitions().stream().allMatch(p -> p.leader() != null)) {
          return created.get().partitions().size();
        }
        if (System.nanoTime() > deadline) {
          throw new FusilladeException(
              "topic '" + spec.name() + "' on " + bootstrap + " has no leaders after " + timeout);
        }
        TimeUnit.MILLISECONDS.sleep(50);
      }
    } catch (java.util.concurrent.TimeoutException e) {
      throw new FusilladeException(
          "Kafka at " + bootstrap + " did not answer within " + timeout.toSeconds() + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FusilladeException("interrupted while preparing topic " + spec.name(), e);
    }
  }

  private static Optional<TopicDescription> describe(Admin admin, String topic, Duration timeout)
      throws InterruptedException, java.util.concurrent.TimeoutException {
    try {
      return Optional.of(
          admin
              .describeTopics(List.of(topic))
              .allTopicNames()
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
              .get(topic));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return Optional.empty();
      }
      throw new FusilladeException(
          "cannot describe topic '" + topic + "': " + e.getCause().getMessage(), e.getCause());
    }
  }
}
