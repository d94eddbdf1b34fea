package io.fusillade.abort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AbortRuleTest {

  @Test
  void anErrorShareOverAWindow() {
    AbortRule rule = AbortRule.parse("abort when errors > 5% over 10s");
    assertThat(rule.metric()).isEqualTo("errors");
    assertThat(rule.limit()).isEqualTo(5.0);
    assertThat(rule.window()).isEqualTo(Duration.ofSeconds(10));
    assertThat(rule.broken(5.0)).isFalse();
    assertThat(rule.broken(5.01)).isTrue();
  }

  @Test
  void aLatencyPercentileInSecondsOrMilliseconds() {
    AbortRule seconds = AbortRule.parse("p99 > 2s over 30s");
    assertThat(seconds.limit()).isEqualTo(2000.0);
    assertThat(seconds.percentile()).isEqualTo(99.0);
    assertThat(seconds.windowSeconds()).isEqualTo(30);
    AbortRule millis = AbortRule.parse("P99.9 >= 250ms over 1m");
    assertThat(millis.limit()).isEqualTo(250.0);
    assertThat(millis.percentile()).isEqualTo(99.9);
    assertThat(millis.broken(250.0)).isTrue();
    assertThat(AbortRule.parse("max > 1.5s over 5s").limit()).isEqualTo(1500.0);
  }

  @Test
  void mistakesAreNamedWithTheRuleAndItsForm() {
    assertThatThrownBy(() -> AbortRule.parse("errors above 5%"))
        .hasMessage(
            "abort rule 'errors above 5%' is not of the form 'errors > 5% over 10s' or"
                + " 'p99 > 2s over 30s'");
    assertThatThrownBy(() -> AbortRule.parse("errors > 5 over 10s"))
        .hasMessageContaining("an error share is a percentage");
    assertThatThrownBy(() -> AbortRule.parse("p99 > 2 over 10s"))
        .hasMessageContaining("a latency needs its unit, ms or s");
    assertThatThrownBy(() -> AbortRule.parse("p99 > 2s over soon"))
        .hasMessageContaining("'soon' is not a duration");
    assertThatThrownBy(() -> AbortRule.parse("p99 > 2s over 500ms"))
        .hasMessageContaining("whole seconds, 1s or more");
    assertThatThrownBy(() -> AbortRule.parse("p120 > 2s over 5s"))
        .hasMessageContaining("not a percentile");
  }
}
