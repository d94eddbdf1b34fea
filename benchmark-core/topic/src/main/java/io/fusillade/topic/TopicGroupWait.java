package io.fusillade.topic;

import io.fusillade.FusilladeException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.TopicPartition;

/**
 * The consumer group of a topic read by several injectors ({@link TopicShare}), seen through the
 * admin client: no injector's consumers see the whole group, so its readiness before the load and
 * its drain after it are judged from what the brokers say of the group.
 */
final class TopicGroupWait {
  /** How long the end offsets must stay still before the group counts as drained. */
  static final Duration QUIET = Duration.ofSeconds(3);

  private TopicGroupWait() {}

  /**
   * Waits until the group is stable with all its members (every injector's), every partition
   * assigned, and this injector's members hold what the group gave them (their positions known):
   * from then on, no message sent can be missed.
   *
   * @param local this injector's members, or null when it has none
   * @throws FusilladeException when that does not happen within {@code timeout}
   */
  static void awaitStable(
      Admin admin,
      TopicSpec spec,
      String groupId,
      int partitions,
      TopicConsumerGroup local,
      TopicShare share,
      Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String seen = "no answer";
    while (System.nanoTime() < deadline) {
      try {
        ConsumerGroupDescription group =
            admin
                .describeConsumerGroups(List.of(groupId))
                .describedGroups()
                .get(groupId)
                .get(2, TimeUnit.SECONDS);
        int assigned = 0;
        int ours = 0;
        for (MemberDescription m : group.members()) {
          int size = m.assignment().topicPartitions().size();
          assigned += size;
          if (local != null && isOurs(local, m.clientId(), share)) {
            ours += size;
          }
        }
        seen =
            group.members().size()
                + " of "
                + spec.consumers()
                + " members, "
                + assigned
                + " of "
                + partitions
                + " partitions assigned, state "
                + group.groupState();
        if (group.groupState() == GroupState.STABLE
            && group.members().size() == spec.consumers()
            && assigned == partitions
            && (local == null || local.assignedHere() == ours)) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FusilladeException("interrupted while waiting for group " + groupId, e);
      } catch (Exception e) {
        seen = KafkaErrors.reason(e);
      }
      sleep(200);
    }
    throw new FusilladeException(
        "the consumer group '"
            + groupId
            + "' of topic '"
            + spec.name()
            + "' across "
            + share.injectors()
            + " injectors was not stable within "
            + timeout.toSeconds()
            + " s ("
            + seen
            + "): do all the injectors run, each with its --injector-index?");
  }

  private static boolean isOurs(TopicConsumerGroup local, String clientId, TopicShare share) {
    for (int i = 0; i < local.count(); i++) {
      if (local.clientId(share.global(i)).equals(clientId)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Waits until the whole group has read what the topic holds: for every partition, the group's
   * committed offset (or this injector's own position, which is fresher) at its end offset, and the
   * end offsets still for {@link #QUIET} (the other injectors' last writes may land after this
   * one's), at most until {@code deadline}.
   *
   * @param ends reads the partitions' end offsets, null when the brokers do not answer
   * @param positions this injector's positions (-1: a partition it does not read)
   * @return whether the group drained
   */
  static boolean drain(
      Admin admin,
      String groupId,
      java.util.function.Supplier<Map<TopicPartition, Long>> ends,
      AtomicLongArray positions,
      long deadline) {
    Map<TopicPartition, Long> still = null;
    long stillSince = 0;
    while (System.nanoTime() < deadline) {
      Map<TopicPartition, Long> now = ends.get();
      if (now != null) {
        if (!now.equals(still)) {
          still = now;
          stillSince = System.nanoTime();
        }
        if (readTo(admin, groupId, now, positions)
            && System.nanoTime() - stillSince >= QUIET.toNanos()) {
          return true;
        }
      }
      sleep(250);
      if (Thread.currentThread().isInterrupted()) {
        return false;
      }
    }
    return false;
  }

  private static boolean readTo(
      Admin admin, String groupId, Map<TopicPartition, Long> ends, AtomicLongArray positions) {
    Map<TopicPartition, OffsetAndMetadata> committed;
    try {
      committed =
          admin
              .listConsumerGroupOffsets(groupId)
              .partitionsToOffsetAndMetadata()
              .get(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
    for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
      OffsetAndMetadata c = committed.get(e.getKey());
      long read = Math.max(c == null ? -1 : c.offset(), positions.get(e.getKey().partition()));
      if (read < e.getValue() && e.getValue() > 0) {
        return false;
      }
    }
    return true;
  }

  private static void sleep(long ms) {
    try {
      TimeUnit.MILLISECONDS.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
