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
 *
 * <ul>
 *   <li><b>Ready</b>: the group stable with all its members (every injector's), every partition
 *       assigned and with a committed offset (each reader commits the position it resolved, {@link
 *       TopicConsumerGroup}), and this injector's readers holding what the group gave them. Every
 *       injector waits for the same condition, so none sends before every partition has a position
 *       at or before its first message, whichever injector's reader holds it.
 *   <li><b>Written</b>: once its writers are closed (every write answered or failed), an injector
 *       commits a marker: offset 0 of partition 0 for the empty group {@code fusillade-<topic>-<run
 *       prefix>-written-<I>}, named after the test, not the readers' group (a group the workload
 *       names outlives the test, and so would its markers).
 *   <li><b>Drained</b>: all N markers there, then the group's committed offsets (or this injector's
 *       own positions, which are fresher) at the partitions' end offsets.
 * </ul>
 *
 * The markers stay in the cluster as empty groups until the brokers expire their offsets ({@code
 * offsets.retention.minutes}, 7 days by default).
 */
final class TopicGroupWait {
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
          int committed = committedPartitions(admin, groupId, spec.name());
          seen += ", " + committed + " of " + partitions + " partitions with a committed offset";
          if (committed == partitions) {
            return;
          }
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

  private static int committedPartitions(Admin admin, String groupId, String topic)
      throws Exception {
    Map<TopicPartition, OffsetAndMetadata> committed =
        admin
            .listConsumerGroupOffsets(groupId)
            .partitionsToOffsetAndMetadata()
            .get(2, TimeUnit.SECONDS);
    int n = 0;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e : committed.entrySet()) {
      if (e.getKey().topic().equals(topic) && e.getValue() != null) {
        n++;
      }
    }
    return n;
  }

  /** The marker group of injector {@code index} of this test: its writes of the topic are done. */
  static String writtenMarker(String topic, TopicShare share, int index) {
    return "fusillade-" + topic + "-" + Long.toHexString(share.runPrefix()) + "-written-" + index;
  }

  /**
   * Says that this injector's writes are all answered (its writers are closed): commits its marker
   * ({@link #writtenMarker}). One that cannot be committed is logged: the others' drain then waits
   * for it until their drain timeout, and says the group did not drain.
   */
  static void markWritten(Admin admin, String topic, TopicShare share) {
    try {
      admin
          .alterConsumerGroupOffsets(
              writtenMarker(topic, share, share.index()),
              Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)))
          .all()
          .get(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      org.slf4j.LoggerFactory.getLogger(TopicGroupWait.class)
          .warn(
              "Topic {}: could not say this injector's writes are done: {}",
              topic,
              KafkaErrors.reason(e));
    }
  }

  /**
   * Waits until every injector's writes are answered (their markers, {@link #markWritten}) and the
   * whole group has read what the topic then holds: for every partition, the group's committed
   * offset (or this injector's own position, which is fresher) at its end offset; at most until
   * {@code deadline}.
   *
   * @param ends reads the partitions' end offsets, null when the brokers do not answer
   * @param positions this injector's positions (-1: a partition it does not read)
   * @return whether the group drained
   */
  static boolean drain(
      Admin admin,
      String groupId,
      String topic,
      TopicShare share,
      java.util.function.Supplier<Map<TopicPartition, Long>> ends,
      AtomicLongArray positions,
      long deadline) {
    boolean written = false;
    while (System.nanoTime() < deadline) {
      written = written || allWritten(admin, topic, share);
      Map<TopicPartition, Long> now = written ? ends.get() : null;
      if (now != null && readTo(admin, groupId, now, positions)) {
        return true;
      }
      sleep(250);
      if (Thread.currentThread().isInterrupted()) {
        return false;
      }
    }
    return false;
  }

  private static boolean allWritten(Admin admin, String topic, TopicShare share) {
    Map<String, org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec> markers =
        new java.util.HashMap<>();
    for (int i = 0; i < share.injectors(); i++) {
      markers.put(
          writtenMarker(topic, share, i),
          new org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec());
    }
    try {
      Map<String, Map<TopicPartition, OffsetAndMetadata>> found =
          admin.listConsumerGroupOffsets(markers).all().get(2, TimeUnit.SECONDS);
      return markers.keySet().stream()
          .allMatch(m -> found.get(m) != null && !found.get(m).isEmpty());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (Exception e) {
      return false;
    }
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
