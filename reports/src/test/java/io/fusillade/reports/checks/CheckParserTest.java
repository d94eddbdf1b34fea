package io.fusillade.reports.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import org.junit.jupiter.api.Test;

class CheckParserTest {

  @Test
  void readsEveryForm() {
    assertThat(CheckParser.parse("p99 < 50ms"))
        .isEqualTo(new LatencyCheck("p99 < 50ms", "p99", 99, Comparator.LESS, 50, null));
    assertThat(CheckParser.parse("p95 <= 0.2s for \"account by id\""))
        .isEqualTo(
            new LatencyCheck(
                "p95 <= 0.2s for \"account by id\"",
                "p95",
                95,
                Comparator.LESS_OR_EQUAL,
                200,
                "account by id"));
    assertThat(((LatencyCheck) CheckParser.parse("p99.9 < 900us")).limitMs()).isEqualTo(0.9);
    assertThat(((LatencyCheck) CheckParser.parse("p999 < 1ms")).percentile()).isEqualTo(99.9);
    assertThat(((LatencyCheck) CheckParser.parse("mean < 1ms")).percentile()).isEqualTo(-1);
    assertThat(CheckParser.parse("errors < 1%"))
        .isEqualTo(new ErrorsCheck("errors < 1%", Comparator.LESS, 1, null));
    assertThat(CheckParser.parse("rate >= 99% of target"))
        .isEqualTo(
            new RateCheck(
                "rate >= 99% of target", Comparator.GREATER_OR_EQUAL, 99, "target", null));
    assertThat(CheckParser.parse("rate > 150/s for q"))
        .isEqualTo(new RateCheck("rate > 150/s for q", Comparator.GREATER, 150, null, "q"));
    assertThat(CheckParser.parse("Lag not growing")).isInstanceOf(LagNotGrowingCheck.class);
    assertThat(CheckParser.parse("injector not saturated")).isInstanceOf(InjectorCheck.class);
    assertThat(CheckParser.parse("no messages lost"))
        .isEqualTo(new DeliveryCheck("no messages lost", false, null));
    assertThat(CheckParser.parse("No Messages Lost for \"my events\""))
        .isEqualTo(new DeliveryCheck("No Messages Lost for \"my events\"", false, "my events"));
    assertThat(CheckParser.parse("delivery exact for orders.v2"))
        .isEqualTo(new DeliveryCheck("delivery exact for orders.v2", true, "orders.v2"));
    assertThat(CheckParser.parse("recovery < 10s after \"kill broker 1\""))
        .isEqualTo(
            new RecoveryCheck(
                "recovery < 10s after \"kill broker 1\"",
                Comparator.LESS,
                10_000,
                "kill broker 1"));
    assertThat(CheckParser.parse("p99 < 50ms for \"e2e events\""))
        .isEqualTo(
            new LatencyCheck(
                "p99 < 50ms for \"e2e events\"", "p99", 99, Comparator.LESS, 50, "e2e events"));
  }

  @Test
  void badSyntaxNamesTheCheckAndThePosition() {
    assertError(
        "p99 < 50", "check \"p99 < 50\": expected a unit (us, ms, s) after the number at the end");
    assertError("p99 < 50 parsecs", "expected a unit (us, ms, s) at position 10");
    assertError("p99 = 50ms", "expected a comparison (<, <=, >, >=), not \"=\" at position 5");
    assertError("p101 < 5ms", "unknown measure \"p101\"");
    assertError("latency < 5ms", "at position 1");
    assertError("errors < 1", "expected '%' after the number (errors are a percentage) at the end");
    assertError("rate >= 99% target", "expected 'of', not \"target\" at position 13");
    assertError("lag growing", "expected 'not', not \"growing\" at position 5");
    assertError("p99 < 5ms for", "expected a request name after 'for' at the end");
    assertError("p99 < 5ms for \"q", "the quoted name is not closed at position 15");
    assertError("p99 < 5ms and more", "expected 'for', not \"and\" at position 11");
    assertError("", "the check is empty");
    assertError("no messages", "expected 'lost' at the end");
    assertError("no message lost", "expected 'messages', not \"message\" at position 4");
    assertError("delivery exactly", "expected 'exact', not \"exactly\" at position 10");
    assertError("no messages lost for", "expected a topic name after 'for' at the end");
    assertError("recovery < 10 after \"kill broker 1\"", "expected a unit (ms, s) at position 15");
    assertError("recovery < 10s", "expected 'after' at the end");
    assertError("recovery < 10s after kill", "expected the fault in quotes");
  }

  private static void assertError(String check, String message) {
    assertThatThrownBy(() -> CheckParser.parse(check))
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("check \"" + check + "\"")
        .hasMessageContaining(message);
  }

  @Test
  void trendTestSeesGrowthButNotNoiseOrDrift() {
    java.util.Random random = new java.util.Random(3);
    double[] noise = new double[300];
    double[] growing = new double[300];
    double[] drift = new double[300];
    for (int i = 0; i < noise.length; i++) {
      noise[i] = 100 + 10 * random.nextGaussian();
      growing[i] = 100 + 2 * i + 10 * random.nextGaussian();
      drift[i] = 100 + 0.01 * i + 10 * random.nextGaussian(); // 3 over the run: less than the noise
    }
    assertThat(TrendTest.of(noise).growing()).isFalse();
    assertThat(TrendTest.of(growing).growing()).isTrue();
    assertThat(TrendTest.of(growing).slopePerSecond()).isBetween(1.8, 2.2);
    assertThat(TrendTest.of(drift).growing()).isFalse();
  }
}
