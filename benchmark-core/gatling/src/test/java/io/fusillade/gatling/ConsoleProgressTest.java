package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The progress lines {@code fusillade run} prints, from the record's flushed seconds. */
class ConsoleProgressTest {
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final ConsoleProgress progress =
      new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), 5);

  /** One second: {@code ok} answers of {@code micros} µs each, and {@code ko} failures. */
  private void second(int elapsed, int ok, long micros, int ko) {
    Histogram oks = new Histogram(3);
    oks.recordValueWithCount(micros, ok);
    Histogram kos = null;
    Map<String, Long> errors = Map.of();
    if (ko > 0) {
      kos = new Histogram(3);
      kos.recordValueWithCount(1, ko);
      errors = Map.of("SQLState 40001: could not serialize access", (long) ko);
    }
    progress.request("by id", ok + ko, oks, kos, errors);
    progress.intervalEnd(1_000L * elapsed, elapsed);
  }

  private String printed() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void printsEveryFiveSecondsTheTotalsAndTheLastPeriodsRateAndP99() {
    for (int s = 1; s <= 4; s++) {
      second(s, 1000, 300, 0);
    }
    assertThat(printed()).isEmpty();
    second(5, 1000, 300, 0);
    assertThat(printed())
        .isEqualTo("Fusillade 5 s: by id  1,000/s  OK 5,000  KO 0  p99 0.300 ms (last 5 s)\n");

    for (int s = 6; s <= 10; s++) {
      second(s, 2000, 1500, s == 8 ? 10 : 0);
    }
    assertThat(printed().lines().skip(1))
        .containsExactly(
            "Fusillade 10 s: by id  2,002/s  OK 15,000  KO 10  p99 1.50 ms (last 5 s)",
            "Fusillade 10 s:   KO SQLState 40001: could not serialize access × 10 (last 5 s)");
  }

  @Test
  void aNameThatDidNotMoveInThePeriodIsLeftOut() {
    second(5, 10, 100, 0);
    bytes.reset();
    for (int s = 6; s <= 10; s++) {
      progress.intervalEnd(1_000L * s, s);
    }
    assertThat(printed()).isEmpty();
  }

  @Test
  void latenciesArePrintedInPlainNotation() {
    // the console once printed p99 1.11e+03 ms
    assertThat(ConsoleProgress.milliseconds(1110.4)).isEqualTo("1,110");
    assertThat(ConsoleProgress.milliseconds(12.34)).isEqualTo("12.3");
    assertThat(ConsoleProgress.milliseconds(0.3)).isEqualTo("0.300");
  }
}
