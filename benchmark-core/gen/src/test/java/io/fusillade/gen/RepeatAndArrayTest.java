package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.FusilladeException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code repeat}: a value held over consecutive rows (a ticket's lines, the columns of a composite
 * key), the same whichever users generate the rows; and array values as PostgreSQL's array
 * literals.
 */
class RepeatAndArrayTest {
  private static final long SEED = 77;

  @Test
  void sequentialWithRepeatWalksTheRangeHoldingEachValueForItsRows() {
    ValueSpec spec =
        ValueSpec.builder("d_id", ValueType.INTEGER)
            .distribution(Distribution.sequential())
            .range(1L, 3L)
            .repeat(2)
            .build();

    assertThat(values(spec, 0, 1, 8)).containsExactly(1, 1, 2, 2, 3, 3, 1, 1);
  }

  @Test
  void aRandomValueIsHeldForItsBlockAndTheBlocksDiffer() {
    ValueSpec spec =
        ValueSpec.builder("customer", ValueType.LONG).range(1L, 1_000_000L).repeat(10).build();
    List<Object> rows = values(spec, 0, 1, 1000);

    for (int block = 0; block < 100; block++) {
      assertThat(rows.subList(block * 10, block * 10 + 10)).containsOnly(rows.get(block * 10));
    }
    assertThat(rows.stream().distinct().count()).isGreaterThan(95);
  }

  @Test
  void usersSharingTheRowsGetTheSameValuesAsOneUserAlone() {
    ValueSpec spec =
        ValueSpec.builder("store", ValueType.INTEGER)
            .distribution(Distribution.zipf(1.1))
            .range(1L, 50L)
            .nullPercentage(20)
            .repeat(7)
            .build();
    List<Object> alone = values(spec, 0, 1, 300);
    List<Object> first = values(spec, 0, 3, 100);
    List<Object> second = values(spec, 1, 3, 100);
    List<Object> third = values(spec, 2, 3, 100);

    for (int row = 0; row < 300; row++) {
      List<Object> of = row % 3 == 0 ? first : row % 3 == 1 ? second : third;
      assertThat(of.get(row / 3)).as("row %d", row).isEqualTo(alone.get(row));
    }
    assertThat(alone).containsNull();
  }

  @Test
  void uniqueWithRepeatGivesEachValueToExactlyOneBlockThenRunsOut() {
    ValueSpec spec =
        ValueSpec.builder("ticket", ValueType.INTEGER).range(1L, 5L).unique(true).repeat(2).build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", 0, 1);
    Map<Object, Integer> counts = new HashMap<>();
    Object previous = null;
    for (int row = 0; row < 10; row++) {
      Object v = gen.next();
      counts.merge(v, 1, Integer::sum);
      if (row % 2 == 1) {
        assertThat(v).isEqualTo(previous);
      }
      previous = v;
    }

    assertThat(counts).hasSize(5).allSatisfy((v, n) -> assertThat(n).isEqualTo(2));
    assertThat(spec.uniqueCapacity()).isEqualTo(10);
    assertThatThrownBy(gen::next)
        .isInstanceOf(FusilladeException.class)
        .hasMessageContaining("has given out all 5 values, 2 times each");
  }

  @Test
  void anIntegerArrayIsALiteralOfItsDrawnLengthWithElementsFromTheSpec() {
    ValueSpec spec =
        ValueSpec.builder("items", ValueType.INTEGER)
            .distribution(Distribution.nurand(8191, 100))
            .range(1L, 100_000L)
            .array(new ValueSpec.ArraySize(5, 15))
            .build();
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "new order", 0, 1);
    int[] lengths = new int[16];
    for (int i = 0; i < 2000; i++) {
      String literal = (String) gen.next();
      assertThat(literal).matches("\\{\\d+(,\\d+)*}");
      String[] items = literal.substring(1, literal.length() - 1).split(",");
      lengths[items.length]++;
      for (String item : items) {
        assertThat(Integer.parseInt(item)).isBetween(1, 100_000);
      }
    }
    for (int length = 0; length < 16; length++) {
      if (length < 5) {
        assertThat(lengths[length]).isZero();
      } else {
        assertThat(lengths[length]).as("arrays of %d", length).isBetween(120, 250);
      }
    }
  }

  @Test
  void stringElementsAreQuotedWithTheirQuotesAndBackslashesEscaped() {
    ValueSpec spec =
        ValueSpec.builder("tags", ValueType.CHOICE)
            .choices(List.of("a b", "say \"hi\"", "back\\slash"), List.of())
            .distribution(Distribution.sequential())
            .array(new ValueSpec.ArraySize(3, 3))
            .build();

    assertThat(values(spec, 0, 1, 1))
        .containsExactly("{\"a b\",\"say \\\"hi\\\"\",\"back\\\\slash\"}");
  }

  private static List<Object> values(ValueSpec spec, int user, int users, int count) {
    ValueGenerator gen = ValueGenerator.create(spec, SEED, "t", user, users);
    List<Object> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(gen.next());
    }
    return out;
  }
}
