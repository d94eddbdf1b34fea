package io.fusillade.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.record.RunEvents;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The schedule does each fault at its time to a real process ({@code sleep}, standing for a local
 * server: SIGSTOP, SIGCONT, SIGKILL, started again) and records its start and end; a command's exit
 * code and output go in its end event.
 */
class FaultScheduleTest {
  private final Sleeper sleeper = new Sleeper();
  private final List<String> events = new ArrayList<>();
  private final RunEvents recorder =
      (kind, target, detail) -> {
        synchronized (events) {
          events.add(kind + " | " + target + " | " + detail);
          events.notifyAll();
        }
      };

  /** One node: a {@code sleep} process. */
  private static final class Sleeper implements FaultTarget {
    volatile Process process = start();

    private static Process start() {
      try {
        return new ProcessBuilder("sleep", "600").start();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public int nodes() {
      return 1;
    }

    @Override
    public void pause(int node) {
      signal("STOP");
    }

    @Override
    public void resume(int node) {
      signal("CONT");
    }

    @Override
    public void kill(int node) {
      process.destroyForcibly();
    }

    @Override
    public void restart(int node) {
      if (!process.isAlive()) {
        process = start();
      }
    }

    private void signal(String name) {
      try {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
      } catch (IOException e) {
        throw new IllegalStateException(e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    /** The process's state letter in {@code /proc}: T when stopped. */
    char state() throws IOException {
      String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2);
    }
  }

  @AfterEach
  void stop() {
    sleeper.process.destroyForcibly();
  }

  private void awaitEvents(int count) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    synchronized (events) {
      while (events.size() < count && System.nanoTime() < deadline) {
        events.wait(100);
      }
      assertThat(events).as("events so far").hasSizeGreaterThanOrEqualTo(count);
    }
  }

  @Test
  void aPauseFreezesTheServerForItsLengthAndIsRecordedFromStartToEnd() throws Exception {
    try (FaultSchedule schedule =
        FaultSchedule.start(
            List.of(Fault.parse("at 100ms pause sleeper for 1s")),
            Map.of("sleeper", sleeper),
            recorder)) {
      awaitEvents(1);
      Thread.sleep(300);
      assertThat(sleeper.state()).as("frozen during the pause").isEqualTo('T');
      awaitEvents(2);
      assertThat(sleeper.state()).as("running after it").isNotEqualTo('T');
    }
    assertThat(events)
        .containsExactly(
            "fault-start | pause sleeper for 1s | sleeper",
            "fault-end | pause sleeper for 1s | paused, resumed");
  }

  @Test
  void aKillWithALengthStartsTheServerAgainAndACommandsOutputIsKept() throws Exception {
    long killed = sleeper.process.pid();
    try (FaultSchedule schedule =
        FaultSchedule.start(
            List.of(
                Fault.parse("at 0s kill sleeper for 300ms"),
                Fault.parse("at 0s run: echo checked; echo twice >&2; exit 3")),
            Map.of("sleeper", sleeper),
            recorder)) {
      awaitEvents(4);
    }
    assertThat(sleeper.process.pid()).isNotEqualTo(killed);
    assertThat(sleeper.process.isAlive()).isTrue();
    assertThat(events)
        .contains(
            "fault-start | kill sleeper for 300ms | sleeper",
            "fault-end | kill sleeper for 300ms | killed, started again",
            "fault-start | run: echo checked; echo twice >&2; exit 3 | ",
            "fault-end | run: echo checked; echo twice >&2; exit 3 | exit 3: checked | twice");
  }

  @Test
  void theRunsEndResumesAPausedServerAndDropsFaultsNotBegun() throws Exception {
    FaultSchedule schedule =
        FaultSchedule.start(
            List.of(Fault.parse("at 0s pause sleeper for 1h"), Fault.parse("at 1h kill sleeper")),
            Map.of("sleeper", sleeper),
            recorder);
    awaitEvents(1);
    Thread.sleep(200);
    assertThat(sleeper.state()).isEqualTo('T');
    schedule.close(Duration.ofSeconds(5));
    assertThat(sleeper.state()).isNotEqualTo('T');
    assertThat(events)
        .containsExactly(
            "fault-start | pause sleeper for 1h | sleeper",
            "fault-end | pause sleeper for 1h | paused; resumed when the run ended");
  }

  @Test
  void aFaultOnAServerTheRunDidNotStartIsRefusedBeforeAnythingIsDone() {
    assertThatThrownBy(
            () ->
                FaultSchedule.validate(
                    List.of(Fault.parse("at 10s kill broker 1")), Map.of("sleeper", sleeper)))
        .hasMessage(
            "fault 'at 10s kill broker 1': the run has no local 'broker' server; it has"
                + " sleeper 1");
    assertThatThrownBy(
            () ->
                FaultSchedule.validate(
                    List.of(Fault.parse("at 10s kill sleeper 2")), Map.of("sleeper", sleeper)))
        .hasMessage("fault 'at 10s kill sleeper 2': the local sleeper has 1 node");
    assertThatThrownBy(
            () -> FaultSchedule.validate(List.of(Fault.parse("at 10s kill postgres")), Map.of()))
        .hasMessageContaining("it has none: for an external system schedule a command");
  }

  @Test
  void aFaultThatCannotBeDoneIsRecordedAsFailedAndTheOthersGoOn() throws Exception {
    FaultTarget broken =
        new FaultTarget() {
          @Override
          public int nodes() {
            return 1;
          }

          @Override
          public void pause(int node) {}

          @Override
          public void resume(int node) {}

          @Override
          public void kill(int node) {}

          @Override
          public void restart(int node) {
            throw new IllegalStateException("the broker did not start:\nport in use");
          }
        };
    try (FaultSchedule schedule =
        FaultSchedule.start(
            List.of(Fault.parse("at 0s restart broker"), Fault.parse("at 100ms run: true")),
            Map.of("broker", broken),
            recorder)) {
      awaitEvents(4);
    }
    assertThat(events)
        .contains(
            "fault-end | restart broker | failed: the broker did not start: | port in use",
            "fault-end | run: true | exit 0");
  }
}
