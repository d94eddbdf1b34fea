package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run} of a topic written faster than its broker's small disk holds ({@code
 * -Dkafka.embedded.diskSize=8MB}, no retention): the disk fills, the broker stops, and the writes'
 * KO are the broker's own disk error, the server's class, never the injector's. Mounting a tmpfs
 * needs root: where it is refused (run.json's {@code kafka.disk} says a quota) the test is skipped,
 * unless {@code CI=true}, where it fails.
 */
@Tag("slow")
class TopicDiskFillRunTest {
  @TempDir Path dir;

  private static final String TOPIC =
      """
      config_name: disk-fill
      seed: 7
      kafka: {embedded_disk_size: 8MB}
      topics:
        - name: fill
          partitions: 1
          consumers: 1
          configs: {retention.ms: -1, segment.bytes: 1048576}
          message_size: 1024
          # writes in flight to the stopped broker fail within 5 s, not 30
          producer: {linger.ms: 5, batch.size: 65536, acks: all, delivery.timeout.ms: 5000, request.timeout.ms: 4000}
          rate: 3000
          duration: 8s
      """;

  @Test
  void writesBeyondWhatTheDiskHoldsFailWithTheBrokersDiskError() throws Exception {
    Path workload = dir.resolve("fill.yml");
    Files.writeString(workload, TOPIC);
    Path output = dir.resolve("out");
    List<String> command =
        CliProcess.command("run", workload.toString(), "--output", output.toString());
    ProcessBuilder builder =
        CliProcess.withChildJvmOptions(
                new ProcessBuilder(command), "-Dfusillade.topic.drainTimeout=2s")
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("console.txt").toFile());
    long started = System.nanoTime();
    Process cli = builder.start();
    boolean ended = cli.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      cli.descendants().forEach(ProcessHandle::destroyForcibly);
      cli.destroyForcibly();
    }
    String console = Files.readString(dir.resolve("console.txt"));
    System.out.printf(
        "TopicDiskFillRunTest: the run took %d s%n%s%n",
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started), console);
    assertThat(ended).as(console).isTrue();

    Path runDirectory;
    try (Stream<Path> runs = Files.list(output)) {
      runDirectory =
          runs.filter(p -> Files.isRegularFile(p.resolve("run.json"))).findFirst().orElseThrow();
    }
    String runJson = Files.readString(runDirectory.resolve("run.json"));
    if (!"true".equals(System.getenv("CI"))) {
      assumeTrue(
          runJson.contains("tmpfs of 8000000 bytes per broker"), "no tmpfs here: " + runJson);
    }
    assertThat(runJson).contains("\"kafka.disk\" : \"tmpfs of 8000000 bytes per broker\"");
    RunRecord record = RunRecordReader.read(runDirectory);
    RequestTotals writes = record.requests().get("write fill");
    Map<String, Long> errors = writes.errors();
    String full =
        "server: broker 0's disk is full: Error while appending records to fill-0: No space left"
            + " on device";
    assertThat(errors).as(console).containsKey(full);
    assertThat(FailureClass.of(full)).isEqualTo(FailureClass.SERVER);
    Map<FailureClass, Long> classes = FailureClass.counts(errors);
    assertThat(classes.get(FailureClass.INJECTOR)).as(errors.toString()).isZero();
    // the moments between the broker's stop and its log read (250 ms) may leave a few refused
    // connections as the network's; the rest are the broker's disk error
    assertThat(errors.get(full)).as(errors.toString()).isGreaterThan(writes.koCount() * 9 / 10);
    assertThat(console).contains("KO by class: server ");
  }
}
