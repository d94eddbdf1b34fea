package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class DeliveryVerifierTest {
  private final DeliveryVerifier verifier = new DeliveryVerifier("t", 42);
  private final long producer = verifier.producerId(3);

  private void ack(int partition, long... sequences) {
    for (long s : sequences) {
      verifier.stream(producer, partition).acknowledged(s);
    }
  }

  private void receive(int partition, long... sequences) {
    for (long s : sequences) {
      verifier.received(new MessageStamp(producer, s, 0), partition);
    }
  }

  @Test
  void twoInjectorsBitsTogetherVerifyWhatNeitherCanAlone() {
    // one test, two injectors: one run prefix; injector 0's producer 3 wrote 0..99 999 (past a
    // 64 Ki chunk), its readers got the first half, injector 1's the second
    DeliveryVerifier other = new DeliveryVerifier("t", 42);
    for (long s = 0; s < 100_000; s++) {
      verifier.stream(producer, 0).acknowledged(s);
      (s < 50_000 ? verifier : other).received(new MessageStamp(producer, s, 0), 0);
    }
    assertThat(verifier.report().lost()).as("alone, injector 0 sees half lost").isEqualTo(50_000);
    assertThat(other.report().receivedUnacknowledged()).isEqualTo(50_000);

    io.fusillade.record.DeliveryCounts together =
        io.fusillade.record.DeliveryBits.merge(List.of(verifier.bits(), other.bits()));

    assertThat(together.acknowledged()).isEqualTo(100_000);
    assertThat(together.received()).isEqualTo(100_000);
    assertThat(together.lost()).isZero();
    assertThat(together.receivedUnacknowledged()).isZero();
    assertThat(together.exact()).isTrue();
  }

  @Test
  void injectorsShareWritersAndReadersAsOneWouldNumberThem() {
    // seven writers over three injectors: 0, 3, 6 | 1, 4 | 2, 5
    List<List<Integer>> owned = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      TopicShare share = new TopicShare(3, i, 9, 0);
      List<Integer> mine = new ArrayList<>();
      for (int local = 0; local < share.ownOf(7); local++) {
        mine.add(share.global(local));
      }
      owned.add(mine);
    }
    assertThat(owned).containsExactly(List.of(0, 3, 6), List.of(1, 4), List.of(2, 5));
    assertThat(TopicShare.ALONE.ownOf(7)).isEqualTo(7);
    assertThat(TopicShare.of(3, 0, 1, 0).runPrefix())
        .as("one test id, one prefix on every injector")
        .isEqualTo(TopicShare.of(3, 2, 1, 0).runPrefix())
        .isNotEqualTo(TopicShare.of(3, 0, 2, 0).runPrefix());
  }

  @Test
  void everyAcknowledgedMessageReceivedOnceInOrderIsExact() {
    ack(0, 0, 1, 2);
    ack(1, 0, 1);
    receive(0, 0, 1, 2);
    receive(1, 0, 1);
    DeliveryVerifier.Report r = verifier.report();
    assertThat(r.acknowledged()).isEqualTo(5);
    assertThat(r.received()).isEqualTo(5);
    assertThat(r.lost()).isZero();
    assertThat(r.exact()).isTrue();
    assertThat(r.streams()).hasSize(2);
  }

  @Test
  void countsLostDuplicatedOutOfOrderAndUnacknowledgedApart() {
    ack(0, 0, 1, 2, 3, 4, 5); // 6 acknowledged
    receive(0, 0, 2, 1); // 1 arrives after 2: out of order
    receive(0, 2); // again: duplicate
    receive(0, 6); // never acknowledged (its send failed)
    DeliveryVerifier.Report r = verifier.report();
    assertThat(r.acknowledged()).isEqualTo(6);
    assertThat(r.received()).isEqualTo(4);
    assertThat(r.lost()).isEqualTo(3); // 3, 4, 5
    assertThat(r.duplicated()).isEqualTo(1);
    assertThat(r.outOfOrder()).isEqualTo(1);
    assertThat(r.receivedUnacknowledged()).isEqualTo(1);
    assertThat(r.exact()).isFalse();
    assertThat(r.toMap()).containsEntry("lost", 3L).containsEntry("exact", false);
  }

  /**
   * A run stopped before its consumers drained: counted up to where the acknowledgements stood at
   * the record's last flush, what was not read by then is unread, never lost.
   */
  @Test
  void aStoppedRunIsCountedUpToItsCutAndItsUnreadMessagesAreNotLost() {
    ack(0, 0, 1, 2, 3);
    ack(1, 0, 1);
    receive(0, 0, 1, 2);
    receive(1, 0);
    java.util.Map<Object, Long> cut = verifier.marks(); // the record's last flush
    ack(0, 4, 5); // acknowledged after the record closed: not in its request table
    receive(0, 4);
    receive(1, 1);

    DeliveryVerifier.Report r = verifier.reportUpTo(cut);

    assertThat(r.acknowledged()).isEqualTo(6);
    assertThat(r.received()).as("of those six").isEqualTo(6 - 1); // 0:3 unread; 1:1 read later
    assertThat(r.lost()).as("unread: partition 0, message 3").isEqualTo(1);
    java.util.Map<String, Object> json = r.toUnverifiedMap("the run stopped before the drain");
    assertThat(json)
        .containsEntry("verified", false)
        .containsEntry("notVerified", "the run stopped before the drain")
        .containsEntry("unread", 1L)
        .containsEntry("exact", false)
        .doesNotContainKey("lost");
    for (Object partition : (java.util.List<?>) json.get("perPartition")) {
      java.util.Map<?, ?> p = (java.util.Map<?, ?>) partition;
      assertThat(p.containsKey("unread")).as("%s", p).isTrue();
      assertThat(p.containsKey("lost")).as("%s", p).isFalse();
    }
  }

  @Test
  void countsBelowACutAWordAtATime() {
    SequenceBits a = new SequenceBits();
    SequenceBits b = new SequenceBits();
    for (long n : new long[] {0, 63, 64, 65, 70_000, 70_001}) {
      a.add(n);
    }
    b.add(64);
    assertThat(a.countBelow(0, null)).isZero();
    assertThat(a.countBelow(64, null)).isEqualTo(2);
    assertThat(a.countBelow(66, null)).isEqualTo(4);
    assertThat(a.countBelow(66, b)).isEqualTo(3);
    assertThat(a.countBelow(70_001, b)).isEqualTo(4);
    assertThat(a.countBelow(Long.MAX_VALUE, null)).isEqualTo(6);
  }

  @Test
  void partitionsSumTheirProducersAndGoIntoRunJson() {
    long other = verifier.producerId(4);
    ack(0, 0, 1, 2);
    ack(1, 0, 1);
    verifier.stream(other, 1).acknowledged(0);
    verifier.stream(other, 1).acknowledged(1);
    receive(0, 0, 2);
    receive(1, 0, 1, 1);
    verifier.received(new MessageStamp(other, 1, 0), 1);
    verifier.received(new MessageStamp(other, 0, 0), 1);
    DeliveryVerifier.Report r = verifier.report();
    assertThat(r.partitions())
        .containsExactly(
            new DeliveryVerifier.PartitionReport(0, 3, 2, 1, 0, 0),
            new DeliveryVerifier.PartitionReport(1, 4, 4, 0, 1, 1));
    assertThat(r.toMap().get("perPartition"))
        .asList()
        .hasSize(2)
        .first()
        .isEqualTo(
            java.util.Map.of(
                "partition", 0,
                "acknowledged", 3L,
                "received", 2L,
                "lost", 1L,
                "duplicated", 0L,
                "outOfOrder", 0L));
  }

  @Test
  void aReceiptBeforeItsAcknowledgementIsNotLost() {
    receive(2, 0);
    ack(2, 0);
    assertThat(verifier.report().lost()).isZero();
    assertThat(verifier.report().receivedUnacknowledged()).isZero();
  }

  @Test
  void stampsOfAnotherRunOrNoStampAreForeign() {
    DeliveryVerifier other = new DeliveryVerifier("t", 7);
    verifier.received(new MessageStamp(other.producerId(3), 0, 0), 0);
    verifier.received(null, 0);
    DeliveryVerifier.Report r = verifier.report();
    assertThat(r.foreign()).isEqualTo(2);
    assertThat(r.received()).isZero();
  }

  @Test
  void countsExactlyUnderConcurrentAcksAndReceiptsAcrossChunks() throws Exception {
    int n = 200_000; // crosses three 64 Ki chunks
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> futures = new ArrayList<>();
      futures.add(
          pool.submit(
              () -> {
                for (long s = 0; s < n; s++) {
                  verifier.stream(producer, 0).acknowledged(s);
                }
              }));
      futures.add(
          pool.submit(
              () -> {
                for (long s = 0; s < n; s++) {
                  if (s % 1000 != 999) {
                    verifier.received(new MessageStamp(producer, s, 0), 0);
                  }
                }
              }));
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    DeliveryVerifier.Report r = verifier.report();
    assertThat(r.acknowledged()).isEqualTo(n);
    assertThat(r.lost()).isEqualTo(n / 1000);
    assertThat(r.outOfOrder()).isZero();
  }

  @Test
  void lossIsAttributedToTheWindowItsMessagesWereAcknowledgedIn() {
    var before = verifier.marks();
    ack(0, 0, 1, 2, 3);
    var middle = verifier.marks();
    ack(0, 4, 5, 6);
    var after = verifier.marks();
    receive(0, 0, 1, 3, 4, 6); // 2 and 5 lost
    assertThat(verifier.lostBetween(before, middle)).isEqualTo(1);
    assertThat(verifier.lostBetween(middle, after)).isEqualTo(1);
    assertThat(verifier.lostBetween(before, after)).isEqualTo(2);
  }
}
