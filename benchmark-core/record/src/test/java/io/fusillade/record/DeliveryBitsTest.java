package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.record.DeliveryBits.StreamBits;
import io.fusillade.record.DeliveryBits.TopicBits;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The delivery of several injectors, verified from their bits together. */
class DeliveryBitsTest {
  private static final long PREFIX = 0x1234L << 32;

  private static BitSet range(int from, int to) {
    BitSet set = new BitSet();
    set.set(from, to);
    return set;
  }

  private static BitSet none() {
    return new BitSet();
  }

  @Test
  void messagesOfOneInjectorReadByAnotherAreNeitherLostNorDuplicated() {
    // injector 0 produced 0..999 of producer 0 to partition 0; its consumers read 0..499,
    // injector 1's read 500..999 (the partition moved to it); injector 1 produced producer 1.
    TopicBits zero =
        new TopicBits(
            "t",
            0,
            List.of(
                new StreamBits(PREFIX, 0, range(0, 1000), range(0, 500), 0, 0),
                new StreamBits(PREFIX | 1, 0, none(), range(0, 300), 0, 0)));
    TopicBits one =
        new TopicBits(
            "t",
            0,
            List.of(
                new StreamBits(PREFIX, 0, none(), range(500, 1000), 0, 0),
                new StreamBits(PREFIX | 1, 0, range(0, 600), range(300, 600), 0, 0)));

    DeliveryCounts merged = DeliveryBits.merge(List.of(zero, one));

    assertThat(merged.acknowledged()).isEqualTo(1600);
    assertThat(merged.received()).isEqualTo(1600);
    assertThat(merged.lost()).isZero();
    assertThat(merged.duplicated()).isZero();
    assertThat(merged.exact()).isTrue();
    assertThat(merged.perProducer())
        .extracting(p -> p.producer(), p -> p.counts().acknowledged())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0L, 1000L),
            org.assertj.core.groups.Tuple.tuple(1L, 600L));
  }

  @Test
  void aMessageReadByTwoInjectorsIsOneDuplicateAndOneReadByNoneIsLost() {
    TopicBits zero =
        new TopicBits(
            "t", 2, List.of(new StreamBits(PREFIX, 3, range(0, 100), range(0, 60), 1, 2)));
    // injector 1 read 50..98 again after a rebalance: 10 read twice (50..59); 99 read by none
    TopicBits one =
        new TopicBits("t", 1, List.of(new StreamBits(PREFIX, 3, none(), range(50, 99), 0, 0)));

    DeliveryCounts merged = DeliveryBits.merge(List.of(zero, one));

    assertThat(merged.received()).isEqualTo(99);
    assertThat(merged.lost()).as("99 was acknowledged and read by neither").isEqualTo(1);
    assertThat(merged.duplicated()).as("injector 0's own 1, and 50..59 read by both").isEqualTo(11);
    assertThat(merged.outOfOrder()).isEqualTo(2);
    assertThat(merged.foreign()).isEqualTo(3);
    assertThat(merged.perPartition())
        .singleElement()
        .satisfies(p -> assertThat(p.partition()).isEqualTo(3));
    assertThat(merged.exact()).isFalse();
  }

  @Test
  void receivedButAcknowledgedToNoneIsShownApart() {
    BitSet acked = range(0, 10);
    acked.clear(4); // its send timed out, the broker kept it
    TopicBits zero =
        new TopicBits("t", 0, List.of(new StreamBits(PREFIX, 0, acked, range(0, 10), 0, 0)));

    DeliveryCounts merged = DeliveryBits.merge(List.of(zero));

    assertThat(merged.acknowledged()).isEqualTo(9);
    assertThat(merged.receivedUnacknowledged()).isEqualTo(1);
    assertThat(merged.lost()).isZero();
  }

  @Test
  void theFileKeepsEveryTopicAndSet(@TempDir Path dir) throws Exception {
    BitSet sparse = new BitSet();
    sparse.set(3);
    sparse.set(70_000);
    TopicBits a =
        new TopicBits("a", 5, List.of(new StreamBits(PREFIX | 7, 2, sparse, range(0, 4), 1, 0)));
    TopicBits b = new TopicBits("b", 0, List.of());

    DeliveryBits.write(dir, List.of(a, b));
    Map<String, TopicBits> read = DeliveryBits.read(dir).orElseThrow();

    assertThat(read).containsOnlyKeys("a", "b");
    StreamBits s = read.get("a").streams().get(0);
    assertThat(s.producerId()).isEqualTo(PREFIX | 7);
    assertThat(s.partition()).isEqualTo(2);
    assertThat(s.acknowledged()).isEqualTo(sparse);
    assertThat(s.received()).isEqualTo(range(0, 4));
    assertThat(s.duplicated()).isEqualTo(1);
    assertThat(read.get("a").foreign()).isEqualTo(5);
    assertThat(read.get("b").streams()).isEmpty();
  }

  @Test
  void aDirectoryWithoutTheFileHasNoBitsAndABrokenFileSaysWhich(@TempDir Path dir)
      throws Exception {
    assertThat(DeliveryBits.read(dir)).isEmpty();
    Files.write(dir.resolve(DeliveryBits.FILE), new byte[] {1, 2, 3});
    assertThatThrownBy(() -> DeliveryBits.read(dir))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining(DeliveryBits.FILE)
        .hasMessageContaining("cannot be read");
  }
}
