package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.DeliveryCounts.Counts;
import io.fusillade.record.DeliveryCounts.Partition;
import io.fusillade.record.DeliveryCounts.Producer;
import io.fusillade.record.DeliveryCounts.Stream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The delivery entry of {@code run.json}: one schema, written and read by this class alone. */
class DeliveryCountsTest {
  private static final DeliveryCounts TWO_PARTITIONS =
      new DeliveryCounts(
          7,
          6,
          1,
          1,
          1,
          0,
          2,
          List.of(
              new Stream(4_000_000_000L, 0, new Counts(3, 2, 1, 0, 0)),
              new Stream(4_000_000_000L, 1, new Counts(4, 4, 0, 1, 1))),
          List.of(
              new Partition(0, new Counts(3, 2, 1, 0, 0)),
              new Partition(1, new Counts(4, 4, 0, 1, 1))),
          List.of(new Producer(4_000_000_000L, new Counts(7, 6, 1, 1, 1))),
          null);

  @Test
  void aVerifiedDeliveryIsWrittenWithItsLostMessagesAndReadBackTheSame() {
    Map<String, Object> json = TWO_PARTITIONS.toMap();

    assertThat(json.keySet())
        .containsExactly(
            "acknowledged",
            "received",
            "lost",
            "duplicated",
            "outOfOrder",
            "receivedUnacknowledged",
            "foreign",
            "exact",
            "streams",
            "perPartition",
            "perProducer");
    assertThat(json).containsEntry("lost", 1L).containsEntry("exact", false);
    assertThat(DeliveryCounts.fromMap(json)).isEqualTo(TWO_PARTITIONS);
  }

  @Test
  void anUnverifiedDeliveryCallsItsMissingMessagesUnreadNeverLostAndIsNeverExact() {
    DeliveryCounts none =
        new DeliveryCounts(5, 3, 2, 0, 0, 0, 0, List.of(), List.of(), List.of(), null);
    assertThat(none.exact()).isFalse();
    DeliveryCounts complete =
        new DeliveryCounts(5, 5, 0, 0, 0, 0, 0, List.of(), List.of(), List.of(), null);
    assertThat(complete.exact()).isTrue();

    DeliveryCounts stopped = TWO_PARTITIONS.unverified("the run stopped before the drain");
    Map<String, Object> json = stopped.toMap();

    assertThat(json)
        .containsEntry("verified", false)
        .containsEntry("notVerified", "the run stopped before the drain")
        .containsEntry("unread", 1L)
        .doesNotContainKey("lost")
        .containsEntry("exact", false);
    for (Object p : (List<?>) json.get("perPartition")) {
      assertThat(((Map<?, ?>) p).containsKey("unread")).isTrue();
      assertThat(((Map<?, ?>) p).containsKey("lost")).isFalse();
    }
    assertThat(complete.unverified("stopped").exact()).isFalse();
    DeliveryCounts read = DeliveryCounts.fromMap(json);
    assertThat(read.verified()).isFalse();
    assertThat(read).isEqualTo(stopped);
  }

  @Test
  void producersAreSummedOverTheirPartitionsAndNotRecordedPastTheirLimit() {
    List<Stream> streams =
        List.of(
            new Stream(0, 0, new Counts(3, 3, 0, 0, 0)),
            new Stream(1, 0, new Counts(2, 1, 1, 0, 0)),
            new Stream(0, 1, new Counts(4, 4, 0, 1, 0)));
    assertThat(DeliveryCounts.byProducer(streams))
        .containsExactly(
            new Producer(0, new Counts(7, 7, 0, 1, 0)), new Producer(1, new Counts(2, 1, 1, 0, 0)));

    List<Stream> many = new java.util.ArrayList<>();
    for (int p = 0; p <= DeliveryCounts.MAX_PRODUCERS_RECORDED; p++) {
      many.add(new Stream(p, 0, new Counts(1, 1, 0, 0, 0)));
    }
    assertThat(DeliveryCounts.byProducer(many)).isEmpty();
  }

  @Test
  void anOlderRecordWithoutPerPartitionHasItsStreamsSummedByPartition() {
    Map<String, Object> older =
        Map.of(
            "acknowledged", 9,
            "received", 9,
            "lost", 0,
            "streams",
                List.of(
                    Map.of("producer", 1, "partition", 0, "acknowledged", 4, "received", 4),
                    Map.of("producer", 2, "partition", 0, "acknowledged", 5, "received", 5)));

    DeliveryCounts read = DeliveryCounts.fromMap(older);

    assertThat(read.perPartition()).containsExactly(new Partition(0, new Counts(9, 9, 0, 0, 0)));
    assertThat(read.perProducer())
        .containsExactly(
            new Producer(1, new Counts(4, 4, 0, 0, 0)), new Producer(2, new Counts(5, 5, 0, 0, 0)));
    assertThat(read.exact()).isTrue();
  }
}
