package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalKafka;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunRecorder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The only broker of a cluster stops mid-run and starts again on the same port and log directory:
 * sends fail at once naming the refused broker (not after the delivery timeout), node down/up are
 * in the run record, and sends and consumers resume after the restart.
 */
@Tag("slow")
class BrokerRestartTest {
  private static final int RATE = 200;
  @TempDir Path runs;

  @Test
  void sendsFailAtOnceWhileTheBrokerIsDownAndResumeAfterItsRestart() throws Exception {
    try (LocalKafka kafka = LocalKafka.start()) {
      String broker = "127.0.0.1:" + kafka.port(0);
      String refused = "connection refused: " + broker;
      TopicClientOptions options =
          TopicClientOptions.of(kafka.bootstrapServers())
              .withTopic(TopicSpec.of("outage").withPartitions(2).withConsumers(1))
              .withDrainTimeout(Duration.ofSeconds(5));
      RunRecorder run = RunRecorder.open(RunOptions.of("outage").withBaseDirectory(runs));
      Map<String, Long> koByReason = new ConcurrentHashMap<>();
      AtomicLong lastKoNanos = new AtomicLong();
      AtomicLong firstOkAfterRestart = new AtomicLong();
      AtomicLong maxFastKoMillis = new AtomicLong();
      long stopped;
      long restarted;
      try (run) {
        TopicClient client = TopicClient.open(options, run);
        ProducedTopic produced = client.topic("outage");
        byte[] value = Payloads.fixed(1, 100).of(100);
        long start = System.nanoTime();
        long period = 1_000_000_000L / RATE;
        long[] marks = new long[2];
        AtomicLong restartMark = new AtomicLong(Long.MAX_VALUE);
        // 3 s up, stop, 4 s down, restart, 5 s up
        for (int i = 0; i < RATE * 12; i++) {
          long due = start + i * period;
          LockSupport.parkNanos(due - System.nanoTime());
          if (i == RATE * 3) {
            kafka.stopBroker(0);
            marks[0] = System.nanoTime();
          } else if (i == RATE * 7) {
            kafka.restartBroker(0);
            marks[1] = System.nanoTime();
            restartMark.set(marks[1]);
          }
          long sent = System.nanoTime();
          client.send(
              produced,
              null,
              value,
              null,
              sent,
              (end, error) -> {
                if (error == null) {
                  if (sent > restartMark.get()) {
                    firstOkAfterRestart.compareAndSet(0, end);
                  }
                } else {
                  koByReason.merge(KafkaErrors.reason(error), 1L, Long::sum);
                  lastKoNanos.accumulateAndGet(end, Math::max);
                  if (KafkaErrors.reason(error).equals(refused)) {
                    maxFastKoMillis.accumulateAndGet(
                        TimeUnit.NANOSECONDS.toMillis(end - sent), Math::max);
                  }
                }
              });
        }
        stopped = marks[0];
        restarted = marks[1];
        client.close();
      }
      System.out.printf(
          "broker outage: KO by reason %s; first OK %d ms after the restart returned%n",
          new TreeMap<>(koByReason),
          TimeUnit.NANOSECONDS.toMillis(firstOkAfterRestart.get() - restarted));

      assertThat(koByReason).containsKey(refused);
      // the refused sends are most of the outage's: from the check's interval on, all of them
      assertThat(koByReason.get(refused)).isGreaterThan(RATE * 3L);
      assertThat(koByReason.keySet())
          .allMatch(r -> FailureClass.of(r) != FailureClass.INJECTOR, "no injector-class KO");
      assertThat(maxFastKoMillis.get()).isLessThan(50);
      assertThat(firstOkAfterRestart.get()).isPositive();
      assertThat(TimeUnit.NANOSECONDS.toMillis(firstOkAfterRestart.get() - restarted))
          .isLessThan(5000);
      assertThat(stopped).isPositive();

      RunRecord record = RunRecordReader.read(run.directory());
      assertThat(record.events())
          .extracting(RunEvent::kind, RunEvent::target)
          .containsSubsequence(
              org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_DOWN, broker),
              org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_UP, broker));
      // KO'd sends were never acknowledged: the delivery check does not count them as lost
      @SuppressWarnings("unchecked")
      Map<String, Object> health =
          (Map<String, Object>) record.manifest().health().get("topic.outage");
      @SuppressWarnings("unchecked")
      Map<String, Object> delivery = (Map<String, Object>) health.get("delivery");
      assertThat(((Number) delivery.get("lost")).longValue()).isZero();
    }
  }
}
