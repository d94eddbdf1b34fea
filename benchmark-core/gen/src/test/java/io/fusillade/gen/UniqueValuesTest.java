package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A unique column gives out each value of its range at most once, without remembering them. */
class UniqueValuesTest {

  private static final long SEED = 7;

  @Test
  void aUniqueIntegerColumnIsAPermutationOfItsRange() {
    ValueSpec spec =
        ValueSpec.builder("id", ValueType.INTEGER)
            .distribution(Distribution.zipf(1.1))
            .range(1000L, 10_999L)
            .unique(true)
            .build();
    List<Object> values = take(spec, 10_000);

    assertThat(new HashSet<>(values)).hasSize(10_000);
    assertThat(values).allSatisfy(v -> assertThat((Integer) v).isBetween(1000, 10_999));
    assertThat(values.subList(0, 5)).isNotEqualTo(List.of(1000, 1001, 1002, 1003, 1004));
  }

  @Test
  void sequentialUniqueValuesComeInOrder() {
    ValueSpec spec =
        ValueSpec.builder("id", ValueType.LONG)
            .distribution(Distribution.sequential())
            .range(5L, 100L)
            .unique(true)
            .build();

    assertThat(take(spec, 4)).containsExactly(5L, 6L, 7L, 8L);
  }

  @Test
  void uniqueStringsDatesDatetimesDecimalsAndUuidsNeverRepeat() {
    List<ValueSpec> specs =
        List.of(
            ValueSpec.builder("s", ValueType.STRING)
                .alphabet(new Alphabet("ab"))
                .length(1, 20)
                .range(0L, 49_999L)
                .unique(true)
                .build(),
            ValueSpec.builder("d", ValueType.DATE)
                .range(LocalDate.parse("1900-01-01"), LocalDate.parse("2100-01-01"))
                .unique(true)
                .build(),
            ValueSpec.builder("t", ValueType.DATETIME)
                .range(Instant.parse("2020-01-01T00:00:00Z"), Instant.parse("2020-01-02T00:00:00Z"))
                .unique(true)
                .build(),
            ValueSpec.builder("m", ValueType.DECIMAL)
                .decimal(6, 2)
                .range(new BigDecimal("0.00"), new BigDecimal("9999.99"))
                .unique(true)
                .build(),
            ValueSpec.builder("u", ValueType.UUID).build());

    for (ValueSpec spec : specs) {
      List<Object> values = take(spec, 50_000);
      assertThat(new HashSet<>(values)).as(spec.name()).hasSize(50_000);
    }
  }

  @Test
  void usersSplittingAUniqueColumnNeverCollide() {
    ValueSpec spec =
        ValueSpec.builder("id", ValueType.INTEGER).range(0L, 9_999L).unique(true).build();
    RowGenerator all = RowGenerator.of("t", List.of(spec), SEED);
    Set<Object> seen = new HashSet<>();

    for (int user = 0; user < 4; user++) {
      RowGenerator mine = all.forUser(user, 4);
      for (int i = 0; i < 2_500; i++) {
        assertThat(seen.add(mine.next()[0])).isTrue();
      }
    }
    assertThat(seen).hasSize(10_000);
  }

  @Test
  void askingForMoreValuesThanTheRangeHoldsIsAnError() {
    ValueSpec spec = ValueSpec.builder("id", ValueType.INTEGER).range(1L, 3L).unique(true).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "cars", 0, 1);
    gen.next();
    gen.next();
    gen.next();

    assertThatThrownBy(gen::next)
        .isInstanceOf(FusilladeException.class)
        .hasMessage("unique cars.id has given out all 3 values");
  }

  @Test
  void thePermutationIsABijectionForAwkwardSizes() {
    for (long n : new long[] {1, 2, 3, 5, 1000, (1 << 16) + 7}) {
      Permutation p = new Permutation(n, 99);
      Set<Long> images = new HashSet<>();
      for (long i = 0; i < n; i++) {
        long image = p.apply(i);
        assertThat(image).isBetween(0L, n - 1);
        images.add(image);
      }
      assertThat(images).as("n = %d", n).hasSize((int) n);
    }
  }

  @Test
  void vocabularyEntriesAreDistinctAndRespectLengthAndAlphabet() {
    Vocabulary vocabulary = new Vocabulary(new Alphabet("xyz"), 2, 12, 5);
    Set<String> seen = new HashSet<>();

    for (long k = 0; k < 100_000; k++) {
      String s = vocabulary.entry(k);
      assertThat(s.length()).isBetween(2, 12);
      assertThat(s).matches("[xyz]+");
      assertThat(seen.add(s)).as("entry %d = %s", k, s).isTrue();
    }
  }

  private static List<Object> take(ValueSpec spec, int n) {
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    List<Object> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(gen.next());
    }
    return out;
  }
}
