package io.fusillade.topic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PayloadsTest {
  @Test
  void oneSharedArrayPerSizeWithSeededContents() {
    Payloads p = Payloads.fixed(1, 1024);
    byte[] a = p.of(1024);
    assertThat(a).hasSize(1024);
    assertThat(p.of(1024)).isSameAs(a);
    assertThat(Payloads.fixed(1, 1024).of(1024)).isEqualTo(a);
    assertThat(Payloads.fixed(2, 1024).of(1024)).isNotEqualTo(a);
  }

  @Test
  void narrowRangesAreExactAndWideOnesStayWithinTheBudget() {
    Payloads narrow = new Payloads(1, 100, 10_000);
    assertThat(narrow.step()).isEqualTo(1);
    assertThat(narrow.of(4321)).hasSize(4321);
    Payloads wide = new Payloads(1, 1, 1 << 20);
    long held = ((1L << 20) / wide.step() + 1) * (1L << 19); // sizes held times their mean
    assertThat(held).isLessThanOrEqualTo(Payloads.BUDGET_BYTES + (1 << 20));
    assertThat(wide.of(1 << 20).length).isLessThanOrEqualTo(1 << 20);
    assertThat(wide.of(1 << 20).length).isGreaterThan((1 << 20) - wide.step());
    assertThatThrownBy(() -> wide.of(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
