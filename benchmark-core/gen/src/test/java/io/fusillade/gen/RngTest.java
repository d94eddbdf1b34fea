package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The generator's bounded draws stay in bounds, including at the edges of the long range. */
class RngTest {

  @Test
  void boundedDrawsStayInsideInclusiveBounds() {
    Rng rng = new Rng(3);
    boolean sawLo = false;
    boolean sawHi = false;
    for (int i = 0; i < 10_000; i++) {
      long v = rng.nextLong(-3, 3);
      assertThat(v).isBetween(-3L, 3L);
      sawLo |= v == -3;
      sawHi |= v == 3;
    }
    assertThat(sawLo).isTrue();
    assertThat(sawHi).isTrue();
  }

  @Test
  void theFullLongRangeAndUnsignedBoundsWork() {
    Rng rng = new Rng(4);
    long bound = 0xC000_0000_0000_0000L; // 3 * 2^62, unsigned
    for (int i = 0; i < 1000; i++) {
      assertThat(rng.nextLong(Long.MIN_VALUE, Long.MAX_VALUE)).isNotNull();
      assertThat(Long.compareUnsigned(rng.nextUnsigned(bound), bound)).isNegative();
    }
  }

  @Test
  void doublesAreInTheUnitInterval() {
    Rng rng = new Rng(5);
    for (int i = 0; i < 10_000; i++) {
      assertThat(rng.nextDouble()).isGreaterThanOrEqualTo(0).isLessThan(1);
    }
  }

  @Test
  void theSequenceIsSplitMix64() {
    // Reference values of SplitMix64 seeded with 0 (Vigna's splitmix64.c).
    Rng rng = new Rng(0);

    assertThat(rng.nextLong()).isEqualTo(0xE220A8397B1DCDAFL);
    assertThat(rng.nextLong()).isEqualTo(0x6E789E6AA1B965F4L);
  }
}
