package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.record.FailureClass;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunEvent;
import io.fusillade.record.RunRecord;
import io.fusillade.record.SecondCounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log store node that goes down mid-run and comes back, through the real run ({@link
 * LogIngestSimulation} in a forked Gatling JVM) against one embedded OpenSearch (the suite's shared
 * node, {@link SharedOpenSearch}: the runs write indices of their own). The node is made "down" by
 * a {@link TcpForwarder} in front of it that the test stops (refused connections, reset open ones)
 * and starts again on the same port: an embedded OpenSearch cannot restart on its port.
 */
// Timed: its claims are times (a node back in use within seconds of its restart, no failure 2 s
// after the stop) and KO counts bounded by what was in flight.
@Tag("timed")
@Tag("slow")
class LogsNodeOutageTest {
  private static final int RATE = 20; // bulks/s

  @TempDir static Path base;

  /** The suite's shared node: never stopped here, only the forwarder in front of it. */
  private static String nodeUrl;

  private static int nodePort;

  @BeforeAll
  static void node() {
    nodeUrl = SharedOpenSearch.url();
    nodePort = java.net.URI.create(nodeUrl).getPort();
  }

  /** Starts an ingest run of {@code seconds} at {@link #RATE} bulks of 100 documents to urls. */
  private static CompletableFuture<GatlingFork> ingest(String urls, String index, int seconds)
      throws Exception {
    Path dir = Files.createTempDirectory(base, "run");
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return GatlingFork.run(
                GatlingFork.launcher(dir, LogIngestSimulation.class)
                    .withHeap("512m")
                    .withoutReports()
                    .withTimeout(Duration.ofMinutes(3))
                    .withProperties(
                        Map.of(
                            "logs.url",
                            urls,
                            "logs.index",
                            index,
                            "logs.bulk",
                            "100",
                            "logs.rate",
                            Integer.toString(RATE),
                            "logs.duration",
                            seconds + "s")));
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** Waits until the run sends through the forwarder, then {@code seconds} more. */
  private static void awaitLoad(TcpForwarder forwarder, int seconds) throws Exception {
    // The index is created through it first, then the load: bulks of 100 documents, some 20 KB
    // each. Counted in bytes, not connections: the client may send both on one connection.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (forwarder.sent() < 100_000) {
      assertThat(System.nanoTime())
          .as("bulks through the forwarder within 90 s")
          .isLessThan(deadline);
      Thread.sleep(50);
    }
    Thread.sleep(seconds * 1000L);
  }

  private static Map<String, Long> koByReason(RequestTotals bulks) {
    return new TreeMap<>(bulks.errors());
  }

  @Test
  void aNodeDownMidRunFailsFastNamingItAndIsUsedAgainSoonAfterItsRestart() throws Exception {
    try (TcpForwarder forwarder = new TcpForwarder(nodePort)) {
      String hostPort = "127.0.0.1:" + forwarder.port();
      CompletableFuture<GatlingFork> running = ingest(forwarder.url(), "outage", 14);
      awaitLoad(forwarder, 3);
      forwarder.stop();
      long stoppedMs = System.currentTimeMillis();
      Thread.sleep(4000);
      forwarder.start();
      long restartedMs = System.currentTimeMillis();
      GatlingFork run = running.get(3, TimeUnit.MINUTES);
      assertThat(run.exitCode()).as(run.output()).isZero();
      RunRecord record = run.record();
      RequestTotals bulks = record.requests().get("bulk");
      Map<String, Long> reasons = koByReason(bulks);
      long firstOkMs =
          record.seconds().stream()
              .filter(s -> s.epochMs() > restartedMs) // epochMs: the end of the second
              .filter(s -> okIn(s) > 0)
              .mapToLong(SecondCounts::epochMs)
              .min()
              .orElseThrow();
      long upMs =
          record.events().stream()
              .filter(e -> e.kind().equals(RunEvent.NODE_UP))
              .mapToLong(RunEvent::epochMs)
              .findFirst()
              .orElseThrow();
      System.out.printf(
          "logs outage, one node: KO by reason %s; node-up %d ms after the restart; first OK"
              + " within %d ms of it (the end of its second)%n",
          reasons, upMs - restartedMs, firstOkMs - restartedMs);

      assertThat(reasons).containsKey("connection refused: " + hostPort);
      assertThat(reasons.keySet())
          .allMatch(r -> FailureClass.of(r) == FailureClass.NETWORK, "network-class only");
      // Four seconds down at 20/s: about 80 KO, each at once (none waits for a timeout). At most
      // the bulks due while it was down (as long as this thread really took, on a busy machine)
      // and until the probe found it up again (2.5 s at most, asserted below).
      long dueWhileDown = (restartedMs - stoppedMs + 2500) * 20 / 1000;
      assertThat(bulks.koCount()).isBetween(40L, dueWhileDown + 10);
      assertThat(bulks.ko().getMaxValue() / 1000).isLessThan(1000);
      // The probe's longest wait is 2 s: back in use within it, and OK at once.
      assertThat(upMs - restartedMs).isLessThan(2500);
      assertThat(firstOkMs - restartedMs).isLessThan(3000);
      assertThat(record.events())
          .extracting(RunEvent::kind, RunEvent::target)
          .containsSubsequence(
              org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_DOWN, hostPort),
              org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_UP, hostPort));
    }
  }

  @Test
  void withTwoNodesTheBulksGoToTheLiveOneWhileTheOtherIsDown() throws Exception {
    try (TcpForwarder forwarder = new TcpForwarder(nodePort)) {
      String hostPort = "127.0.0.1:" + forwarder.port();
      // The forwarder's URL first: the index is created through it, before it stops.
      CompletableFuture<GatlingFork> running =
          ingest(forwarder.url() + "," + nodeUrl, "two-nodes", 10);
      awaitLoad(forwarder, 3);
      long stoppedAt = System.currentTimeMillis();
      forwarder.stop();
      GatlingFork run = running.get(3, TimeUnit.MINUTES);
      assertThat(run.exitCode()).as(run.output()).isZero();
      RunRecord record = run.record();
      RequestTotals bulks = record.requests().get("bulk");
      System.out.printf(
          "logs outage, one of two nodes: %d OK, KO by reason %s%n",
          bulks.okCount(), koByReason(bulks));
      // Only what was in flight on the stopped node when it stopped failed; the rest went to the
      // other. In flight: half the bulks (round robin) for as long as a bulk takes, which on a
      // loaded machine is more than the 100 ms it takes on an idle one.
      double slowBulkSeconds = bulks.ok().getValueAtPercentile(99) / 1e6;
      long inFlight = 5 + Math.round(RATE / 2.0 * (slowBulkSeconds + 1));
      assertThat(bulks.koCount()).isLessThanOrEqualTo(inFlight);
      assertThat(bulks.okCount()).isGreaterThanOrEqualTo(RATE * 10L - inFlight);
      // ... and none was sent to it once it was down: no KO in the seconds after the stop's.
      assertThat(
              record.seconds().stream()
                  .filter(second -> second.epochMs() > stoppedAt + 2_000)
                  .mapToLong(LogsNodeOutageTest::koIn)
                  .sum())
          .as("KO more than 2 s after the node stopped")
          .isZero();
      assertThat(record.events())
          .extracting(RunEvent::kind, RunEvent::target)
          .contains(org.assertj.core.groups.Tuple.tuple(RunEvent.NODE_DOWN, hostPort));
      assertThat(record.events()).noneMatch(e -> e.target().equals(nodeUrl.substring(7)));
    }
  }

  private static long koIn(SecondCounts s) {
    SecondCounts.RequestSecond r = s.requests().get("bulk");
    return r == null ? 0 : r.ko();
  }

  private static long okIn(SecondCounts s) {
    SecondCounts.RequestSecond r = s.requests().get("bulk");
    return r == null ? 0 : r.ok();
  }

  @SuppressWarnings("unused")
  private static List<String> targets(RunRecord record) {
    return record.events().stream().map(RunEvent::target).toList();
  }
}
