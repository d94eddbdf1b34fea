package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gatling.GatlingFork;
import io.fusillade.gatling.GatlingLauncher;
import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic request-reply through Gatling's launcher (one JVM, one embedded broker): replies matched
 * by correlation id and checked, a failed check and a timeout KO with their reasons.
 */
@Tag("slow")
class TopicRequestReplyTest {
  @TempDir Path base;

  @Test
  void repliesAreMatchedAndCheckedAndAMissingReplyTimesOutNamingItsTopic() throws Exception {
    GatlingLauncher launcher =
        GatlingFork.launcher(base, RequestReplySimulation.class)
            .withHeap("512m")
            .withoutReports()
            .withTimeout(Duration.ofMinutes(2));
    GatlingFork run = GatlingFork.run(launcher);
    assertThat(run.exitCode()).as(run.output()).isZero();
    RunRecord record = run.record();

    RequestTotals ask = record.requests().get("ask");
    assertThat(ask.okCount()).as(ask.errors().toString()).isEqualTo(RequestReplySimulation.ASKED);
    assertThat(ask.koCount()).isZero();

    RequestTotals wrong = record.requests().get("wrong");
    assertThat(wrong.koCount()).isEqualTo(RequestReplySimulation.WRONG);
    assertThat(wrong.errors().keySet())
        .containsExactly("messageValue.is(refused): found echo order");

    RequestTotals unanswered = record.requests().get("unanswered");
    assertThat(unanswered.okCount()).isZero();
    assertThat(unanswered.koCount()).isEqualTo(RequestReplySimulation.TIMED_OUT);
    assertThat(unanswered.errors().keySet())
        .containsExactly("no reply on " + RequestReplySimulation.REPLIES + " within 500 ms");
    // Timed from the due time: a timed-out request lasts its timeout, not much more.
    assertThat(unanswered.ko().getMinValue()).as("µs").isGreaterThanOrEqualTo(495_000);
    assertThat(unanswered.ko().getMaxValue()).as("µs").isLessThan(900_000);
  }
}
