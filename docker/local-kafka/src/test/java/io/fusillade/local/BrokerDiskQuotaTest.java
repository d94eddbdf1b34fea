package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where mounting is refused, a broker's disk is a quota over its log directory's files; and what a
 * broker's log says when its disk filled.
 */
class BrokerDiskQuotaTest {
  @TempDir Path dir;

  @Test
  void aQuotaCountsTheSegmentsNotThePreallocatedIndexes() throws Exception {
    Path partition = Files.createDirectories(dir.resolve("logs/t-0"));
    Files.write(partition.resolve("00000000000000000000.log"), new byte[600 * 1024]);
    try (RandomAccessFile index =
        new RandomAccessFile(partition.resolve("00000000000000000000.index").toFile(), "rw")) {
      index.setLength(10 * 1024 * 1024); // as Kafka preallocates it: sparse
    }
    BrokerDisk disk = new BrokerDisk(dir.resolve("logs"), 1024 * 1024, "mount: permission denied");
    assertThat(disk.mounted()).isFalse();
    assertThat(disk.refusal()).isEqualTo("mount: permission denied");
    assertThat(disk.used()).isEqualTo(600 * 1024);
    assertThat(disk.usePercent()).isCloseTo(58.59, org.assertj.core.data.Offset.offset(0.01));
    Files.write(partition.resolve("00000000000000000001.log"), new byte[500 * 1024]);
    assertThat(disk.usePercent()).as("beyond the quota: full").isGreaterThan(100);
    assertThat(new BrokerDisk(dir.resolve("gone"), 1024 * 1024, "refused").usePercent()).isNaN();
  }

  @Test
  void aBrokersLogSaysWhatItWasWritingWhenItsDiskFilled() throws Exception {
    Path log = dir.resolve("broker.log");
    Files.write(
        log,
        List.of(
            "2026-11-27 13:15:30,100 WARN  o.a.k.c.NetworkClient - something else",
            "2026-11-27 13:15:31,488 ERROR o.a.k.s.i.l.LogDirFailureChannel - Error while appending"
                + " records to kept-0 in dir /tmp/fusillade-kafka-49/data/logs",
            "java.io.IOException: No space left on device",
            "\tat java.base/sun.nio.ch.FileDispatcherImpl.write0(Native Method)",
            "2026-11-27 13:15:31,519 ERROR kafka.log.LogManager - Shutdown broker because all log"
                + " dirs in /tmp/fusillade-kafka-49/data/logs have failed"));
    assertThat(BrokerLog.diskFailure(log))
        .hasValue("Error while appending records to kept-0: No space left on device");
    Files.write(log, List.of("2026-11-27 13:15:30,100 WARN  o.a.k.c.NetworkClient - fine"));
    assertThat(BrokerLog.diskFailure(log)).isEmpty();
    assertThat(BrokerLog.diskFailure(dir.resolve("none.log"))).isEmpty();
  }
}
