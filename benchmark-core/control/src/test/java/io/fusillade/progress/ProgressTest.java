package io.fusillade.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import io.fusillade.progress.Progress.Mode;
import io.fusillade.progress.Progress.Settings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Progress} with a hand-moved clock: what it prints, and when. */
class ProgressTest {
  private final StringWriter text = new StringWriter();
  private final PrintWriter out = new PrintWriter(text);
  private long nanos = 1_000_000_000L;

  private Progress progress(Mode mode) {
    return Progress.of("filling cars", out, Settings.of(mode), () -> nanos)
        .total(1_000_000, "rows")
        .summary("filled cars")
        .startClock();
  }

  private void advance(double seconds) {
    nanos += (long) (seconds * 1e9);
  }

  @Test
  void shortWorkPrintsOnlyTheSummary() {
    for (Mode mode : new Mode[] {Mode.TTY, Mode.PLAIN}) {
      text.getBuffer().setLength(0);
      Progress progress = progress(mode);
      progress.add(500_000);
      advance(1.9);
      progress.tick();
      progress.add(500_000);
      progress.close();
      assertThat(text.toString())
          .isEqualTo("filled cars: 1,000,000 rows in 1.9 s, 526,316 rows/s\n");
    }
  }

  @Test
  void plainPrintsAfterTheQuietTimeThenEveryTenSeconds() {
    Progress progress = progress(Mode.PLAIN);
    // 100,000 rows a second, ticked ten times a second as the thread does.
    for (int tenth = 1; tenth <= 250; tenth++) {
      advance(0.1);
      progress.add(10_000);
      progress.tick();
    }
    progress.close();
    assertThat(text.toString().split("\n"))
        .containsExactly(
            "filling cars: 200,000 of 1,000,000 rows (20.0%), 100,000 rows/s, ETA 8 s, 2 s elapsed",
            "filling cars: 1,200,000 of 1,000,000 rows (100.0%), 100,000 rows/s, ETA 0 s,"
                + " 12 s elapsed",
            "filling cars: 2,200,000 of 1,000,000 rows (100.0%), 100,000 rows/s, ETA 0 s,"
                + " 22 s elapsed",
            "filled cars: 2,500,000 rows in 25.0 s, 100,000 rows/s");
  }

  @Test
  void aTerminalLineIsRedrawnAtMostFourTimesASecondAndClearedAtTheEnd() {
    Progress progress = progress(Mode.TTY);
    advance(2);
    progress.add(200_000);
    progress.tick();
    advance(0.1);
    progress.tick(); // too soon: nothing
    advance(0.15);
    progress.add(1);
    progress.tick();
    progress.close();
    String first =
        "filling cars: 200,000 of 1,000,000 rows (20.0%), 100,000 rows/s, ETA 8 s, 2 s elapsed";
    String second =
        "filling cars: 200,001 of 1,000,000 rows (20.0%), 88,889 rows/s, ETA 9 s, 2 s elapsed";
    assertThat(text.toString())
        .isEqualTo(
            "\r"
                + first
                + "\r"
                + second
                + " ".repeat(first.length() - second.length())
                + "\r"
                + " ".repeat(second.length())
                + "\r"
                + "filled cars: 200,001 rows in 2.3 s, 88,889 rows/s\n");
    assertThat(text.toString()).doesNotContain("\n\r");
  }

  @Test
  void noneAndAnAbandonedProgressPrintNoProgress() {
    Progress none = progress(Mode.NONE);
    advance(30);
    none.add(10);
    none.tick();
    none.close();
    assertThat(text.toString()).isEqualTo("filled cars: 10 rows in 30.0 s, 0 rows/s\n");

    text.getBuffer().setLength(0);
    Progress failed = progress(Mode.PLAIN);
    advance(3);
    failed.tick();
    failed.abandon();
    failed.close();
    assertThat(text.toString())
        .startsWith("filling cars: 0 of 1,000,000 rows (0.0%), 0 rows/s, ETA ?");
    assertThat(text.toString()).doesNotContain("filled");
  }

  @Test
  void workWithoutCountsShowsItsElapsedTime() {
    Progress index =
        Progress.of("creating index brand", out, Settings.of(Mode.PLAIN), () -> nanos)
            .summary("created index brand")
            .startClock();
    advance(75);
    index.tick();
    index.close();
    assertThat(text.toString())
        .isEqualTo(
            "creating index brand: running, 1 min 15 s elapsed\n"
                + "created index brand in 75.0 s\n");
  }

  @Test
  void theStartedThreadDrawsWithoutTicksFromTheCaller() throws Exception {
    Settings fast = new Settings(Mode.PLAIN, java.time.Duration.ZERO, java.time.Duration.ZERO);
    try (Progress progress = Progress.of("waiting", out, fast).unit("steps").start()) {
      progress.add(1);
      Thread.sleep(300);
    }
    assertThat(text.toString()).contains("waiting: 1 steps, ").endsWith("\n");
    assertThat(text.toString().lines()).hasSizeGreaterThan(1);
  }

  @Test
  void theModeComesFromTheOptionThenTheVariable() {
    assertThat(Settings.resolve("plain", Map.of("FUSILLADE_PROGRESS", "tty")).mode())
        .isEqualTo(Mode.PLAIN);
    assertThat(Settings.resolve(null, Map.of("FUSILLADE_PROGRESS", "NONE")).mode())
        .isEqualTo(Mode.NONE);
    // Tests run without a terminal: auto is plain.
    assertThat(Settings.resolve(null, Map.of()).mode()).isEqualTo(Mode.PLAIN);
    assertThat(Progress.isTerminal()).isFalse();
    assertThatThrownBy(() -> Settings.resolve("fancy", Map.of()))
        .isInstanceOf(FusilladeException.class)
        .hasMessage("--progress must be auto, tty, plain or none, not \"fancy\"");
    assertThatThrownBy(() -> Settings.resolve(null, Map.of("FUSILLADE_PROGRESS", "x")))
        .hasMessage("FUSILLADE_PROGRESS must be auto, tty, plain or none, not \"x\"");
  }
}
