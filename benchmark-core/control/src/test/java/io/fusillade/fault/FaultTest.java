package io.fusillade.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The sentences of scheduled faults, as workloads and {@code --fault} write them. */
class FaultTest {

  @Test
  void aPauseHasItsTimeServerNodeAndLength() {
    Fault fault = Fault.parse("at 30s pause broker 2 for 10s");
    assertThat(fault.at()).isEqualTo(Duration.ofSeconds(30));
    assertThat(fault.action()).isEqualTo(Fault.Action.PAUSE);
    assertThat(fault.target()).isEqualTo("broker");
    assertThat(fault.node()).isEqualTo(2);
    assertThat(fault.duration()).isEqualTo(Duration.ofSeconds(10));
    assertThat(fault.label()).isEqualTo("pause broker 2 for 10s");
    assertThat(fault.server()).isEqualTo("broker 2");
  }

  @Test
  void aServerWithoutANodeIsNodeOneAndAKillLastsUnlessGivenALength() {
    Fault kill = Fault.parse("  at 1m KILL Postgres ");
    assertThat(kill.at()).isEqualTo(Duration.ofMinutes(1));
    assertThat(kill.action()).isEqualTo(Fault.Action.KILL);
    assertThat(kill.node()).isEqualTo(1);
    assertThat(kill.label()).isEqualTo("kill postgres");
    assertThat(kill.undoneAfter()).isEmpty();
    assertThat(Fault.parse("at 500ms kill postgres for 5s").undoneAfter())
        .contains(Duration.ofSeconds(5));
    assertThat(Fault.parse("at 90s restart broker 1").action()).isEqualTo(Fault.Action.RESTART);
  }

  @Test
  void aDelayHasItsSizeAndItsLength() {
    Fault delay = Fault.parse("at 40s delay Postgres 2 by 50ms for 10s");
    assertThat(delay.action()).isEqualTo(Fault.Action.DELAY);
    assertThat(delay.node()).isEqualTo(2);
    assertThat(delay.delay()).isEqualTo(Duration.ofMillis(50));
    assertThat(delay.undoneAfter()).contains(Duration.ofSeconds(10));
    assertThat(delay.label()).isEqualTo("delay postgres 2 by 50ms for 10s");
  }

  @Test
  void aCommandKeepsItsTextAsWritten() {
    Fault run = Fault.parse("at 20s run: ssh db3 sudo systemctl stop postgresql");
    assertThat(run.action()).isEqualTo(Fault.Action.RUN);
    assertThat(run.command()).isEqualTo("ssh db3 sudo systemctl stop postgresql");
    assertThat(run.label()).isEqualTo("run: ssh db3 sudo systemctl stop postgresql");
  }

  @Test
  void mistakesQuoteTheFaultAndSayWhatIsExpected() {
    assertBad("pause broker 2 for 10s", "a fault starts with its time");
    assertBad("at soon kill broker 1", "'soon' is not a time");
    assertBad("at 30s pause broker 2", "a pause needs its length");
    assertBad("at 30s restart broker 1 for 5s", "a restart has no length");
    assertBad("at 30s stop broker 1", "expected pause, kill, restart or run:");
    assertBad("at 30s kill broker 0", "nodes count from 1");
    assertBad("at 30s run:", "'run:' needs the command");
    assertBad("at 30s network delay 50ms", "delay postgres by 50ms for 10s");
    assertBad("at 30s delay postgres for 10s", "a delay needs its size and length");
    assertBad("at 30s delay postgres by 50ms", "a delay needs its size and length");
    assertBad("at 30s pause postgres by 50ms for 10s", "'by' goes with a delay");
    assertBad("at 30s kill broker 1 for ever", "'ever' is not a duration");
  }

  private static void assertBad(String text, String why) {
    assertThatThrownBy(() -> Fault.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fault '" + text.strip() + "'")
        .hasMessageContaining(why);
  }
}
