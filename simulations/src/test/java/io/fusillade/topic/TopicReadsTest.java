package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.gatling.GatlingLauncher;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topic reads through Gatling's launcher (one JVM, one embedded broker): replies matched by
 * correlation id and checked, a failed check and a timeout KO with their reasons; consumed messages
 * checked on their key, value, header and end-to-end latency, and a consume with nothing to read KO
 * after its timeout.
 */
@Tag("slow")
class TopicReadsTest {
  @TempDir static Path base;

  private static RunRecord record;

  /** One run for both tests: the simulation holds the request-replies and the reads. */
  @BeforeAll
  static void runOnce() throws Exception {
    GatlingLauncher launcher =
        GatlingFork.launcher(base, TopicReadsSimulation.class)
            .withHeap("512m")
            .withoutReports()
            .withTimeout(Duration.ofMinutes(2));
    GatlingFork run = GatlingFork.run(launcher);
    assertThat(run.exitCode()).as(run.output()).isZero();
    record = run.record();
  }

  @Test
  void repliesAreMatchedAndCheckedAndAMissingReplyTimesOutNamingItsTopic() throws Exception {

    RequestTotals ask = record.requests().get("ask");
    assertThat(ask.okCount()).as(ask.errors().toString()).isEqualTo(TopicReadsSimulation.ASKED);
    assertThat(ask.koCount()).isZero();

    RequestTotals wrong = record.requests().get("wrong");
    assertThat(wrong.koCount()).isEqualTo(TopicReadsSimulation.WRONG);
    assertThat(wrong.errors().keySet())
        .containsExactly("messageValue.is(refused): found echo order");

    RequestTotals unanswered = record.requests().get("unanswered");
    assertThat(unanswered.okCount()).isZero();
    assertThat(unanswered.koCount()).isEqualTo(TopicReadsSimulation.TIMED_OUT);
    assertThat(unanswered.errors().keySet())
        .containsExactly("no reply on " + TopicReadsSimulation.REPLIES + " within 500 ms");
    // Timed from the due time: a timed-out request lasts its timeout, not much more.
    assertThat(unanswered.ko().getMinValue()).as("µs").isGreaterThanOrEqualTo(495_000);
    assertThat(unanswered.ko().getMaxValue()).as("µs").isLessThan(900_000);
  }

  @Test
  void readersTakeEachMessageOnceWithItsEndToEndLatencyAndWaitInVainOnAnEmptyTopic()
      throws Exception {
    RequestTotals read = record.requests().get("read");
    assertThat(read.okCount())
        .as(read.errors().toString())
        .isEqualTo(TopicReadsSimulation.EVENTS_SENT);
    assertThat(read.koCount()).isZero();
    RequestTotals starved = record.requests().get("starved");
    assertThat(starved.koCount()).isEqualTo(TopicReadsSimulation.STARVED);
    assertThat(starved.errors().keySet())
        .containsExactly("no message on " + TopicReadsSimulation.QUIET + " within 500 ms");
  }
}
