package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.local.LocalKafka;
import io.fusillade.record.DeliveryBits;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic workload run by three injectors ({@code --injectors 3 --injector-index I --start-at T})
 * against one 3-broker cluster, a broker killed (SIGKILL) mid-run: each injector writes through its
 * one of the topic's three producers at a third of the rate, their readers share one group, and
 * their records together verify the delivery the one injector would have: every message the test
 * sent acknowledged and received, none lost.
 */
@Tag("slow")
class RunTopicInjectorsTest {
  private static final int RATE = 240;
  private static final int SECONDS = 20;

  @TempDir Path dir;

  @Test
  void threeInjectorsVerifyOneDeliveryTogetherThroughABrokerKill() throws Exception {
    Path file = dir.resolve("topics.yml");
    Files.writeString(
        file,
        """
        seed: 5
        # a broker's fail-over stalls the readers too: their lag may grow, which is not the claim
        checks: ["errors < 1%%", "delivery exact"]
        topics:
          - name: shared
            partitions: 6
            replication: 3
            producers: 3
            consumers: 3
            message_size: 200
            rate: %d
            duration: %ds
        """
            .formatted(RATE, SECONDS));
    try (LocalKafka kafka = LocalKafka.builder().brokers(3).separateProcess(true).start()) {
      Instant start = Instant.now().plusSeconds(30); // after the three JVMs have started
      List<CompletableFuture<CliRun>> runs = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        String[] args = {
          "run",
          file.toString(),
          "--url",
          kafka.bootstrapServers(),
          "--injectors",
          "3",
          "--injector-index",
          Integer.toString(i),
          "--start-at",
          start.toString(),
          "--output",
          dir.resolve("out" + i).toString()
        };
        runs.add(CompletableFuture.supplyAsync(() -> CliRun.of(args)));
      }
      // mid-run, after the group has settled: a broker crashes, its partitions' leaders move
      long wait = Duration.between(Instant.now(), start).toMillis() + SECONDS * 1000 / 2;
      TimeUnit.MILLISECONDS.sleep(Math.max(0, wait));
      kafka.killBroker(2);

      List<String> records = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        CliRun result = runs.get(i).get(300, TimeUnit.SECONDS);
        String printed = result.out() + result.err();
        Path record = SummaryCommand.resolve(dir.resolve("out" + i));
        records.add(record.toString());
        RunRecord data = RunRecordReader.read(record);
        System.out.printf(
            "injector %d: ready %s ms before --start-at%n",
            i, data.manifest().parameters().get("startMarginMs"));
        assertThat(data.manifest().parameters())
            .as(printed)
            .containsEntry("injectors", 3)
            .containsEntry("injectorIndex", i)
            .containsEntry("clockReference", "Kafka at " + kafka.bootstrapServers());
        // one machine, one clock: the broker's and the injector's agree within a few ms
        double offset = ((Number) data.manifest().parameters().get("clockOffsetMs")).doubleValue();
        double uncertainty =
            ((Number) data.manifest().parameters().get("clockUncertaintyMs")).doubleValue();
        assertThat(Math.abs(offset)).as("clock offset, ms").isLessThan(25.0 + uncertainty);
        // its third of the writes, through its own producer
        assertThat(data.requests().get("write shared").okCount())
            .as(printed)
            .isEqualTo(RATE * SECONDS / 3);
        // alone, an injector cannot judge a delivery its readers shared with the others'
        assertThat(printed)
            .contains(
                "passed its 1 check; 1 deferred to the injectors' records together (delivery"
                    + " exact)");
        assertThat(record.resolve(DeliveryBits.FILE)).isRegularFile();
        // end-to-end latency of the messages this injector read, whoever sent them: one clock
        assertThat(data.metrics().get("e2e shared").getTotalCount()).isPositive();
        assertThat(data.metrics().get("e2e shared").getMaxValue())
            .as("e2e max, µs")
            .isBetween(1L, 60_000_000L);
      }

      List<String> report = new ArrayList<>(List.of("report"));
      report.addAll(records);
      report.addAll(List.of("--output", dir.resolve("report").toString()));
      CliRun merged = CliRun.of(report.toArray(String[]::new));
      JsonNode summary =
          new ObjectMapper().readTree(dir.resolve("report").resolve("summary.json").toFile());
      JsonNode delivery = summary.path("topics").path("shared").path("delivery");
      System.out.println("merged report: " + merged.out() + "\ndelivery: " + delivery);
      assertThat(delivery.path("verified").asBoolean()).as(delivery.toString()).isTrue();
      // what one injector would have sent: every write of the test acknowledged, and read
      assertThat(delivery.path("acknowledged").asLong())
          .as(delivery.toString())
          .isEqualTo(RATE * SECONDS);
      assertThat(delivery.path("received").asLong()).isEqualTo(RATE * SECONDS);
      assertThat(delivery.path("lost").asLong()).isZero();
      // the three producers numbered across the test, each its third
      assertThat(delivery.path("perProducer").findValuesAsText("producer"))
          .containsExactly("0", "1", "2");
      for (JsonNode producer : delivery.path("perProducer")) {
        assertThat(producer.path("acknowledged").asLong()).isEqualTo(RATE * SECONDS / 3);
      }
      // judged on the three records together (duplicates after the kill may fail "exact")
      assertThat(merged.out())
          .as(merged.out() + merged.err())
          .contains("delivery exact — lost = 0")
          .doesNotContain("deferred:");
      // two of the three records: not the test's delivery, and said so
      CliRun partial =
          CliRun.of(
              "report",
              records.get(0),
              records.get(1),
              "--output",
              dir.resolve("partial").toString());
      assertThat(partial.exitCode()).as(partial.out() + partial.err()).isEqualTo(3);
      assertThat(partial.out())
          .contains(
              "FAILED: delivery exact — not verified: 2 records of injectors 0, 1, not the 3"
                  + " injectors' records once each");
    }
  }
}
