package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StripedRecorderTest {

  @Test
  void everyValueOfEveryThreadIsInTheIntervalOnceAndOnlyOnce() throws Exception {
    StripedRecorder recorder = new StripedRecorder();
    // More threads than stripes: some share one, which must stay exact.
    int threads = StripedRecorder.STRIPES * 2 + 1;
    int perThread = 20_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> writers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long value = 100L * (t + 1); // thread t records only its own value
      Thread writer =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < perThread; i++) {
                  recorder.recordValue(value);
                }
              });
      writer.start();
      writers.add(writer);
    }
    start.countDown();
    // Read while they write: nothing may be lost or counted twice across the swaps.
    Histogram total = Latencies.newHistogram();
    Histogram interval = null;
    while (writers.stream().anyMatch(Thread::isAlive)) {
      interval = recorder.getIntervalHistogram(interval);
      total.add(interval);
      Thread.sleep(1);
    }
    for (Thread writer : writers) {
      writer.join();
    }
    interval = recorder.getIntervalHistogram(interval);
    total.add(interval);

    assertThat(total.getTotalCount()).isEqualTo((long) threads * perThread);
    for (int t = 0; t < threads; t++) {
      long value = 100L * (t + 1);
      assertThat(total.getCountAtValue(value)).as("value %d", value).isEqualTo(perThread);
    }
    assertThat(recorder.getIntervalHistogram(interval).getTotalCount()).isZero();
  }

  @Test
  void stripesArePowersOfTwoWithAtLeastTwoPerCore() {
    int stripes = StripedRecorder.STRIPES;
    assertThat(Integer.bitCount(stripes)).isEqualTo(1);
    assertThat(stripes)
        .isBetween(4, 32)
        .isGreaterThanOrEqualTo(Math.min(32, 2 * Runtime.getRuntime().availableProcessors()));
  }
}
