package io.fusillade.gen;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * The first values of every type x distribution for one seed, as text: the content of the golden
 * file, and the output of the second JVM in {@link DeterminismTest}. Run as a program, it prints
 * that text to standard output.
 */
public final class GoldenSample {

  /** The seed the golden file pins. */
  static final long SEED = 20240601L;

  private static final int VALUES = 8;

  private GoldenSample() {}

  /**
   * @param args ignored
   */
  public static void main(String[] args) {
    System.out.print(render());
    System.out.flush();
  }

  /**
   * @return one line per spec: its name, the values' class, the first values
   */
  static String render() {
    StringBuilder sb = new StringBuilder();
    sb.append("# seed ").append(SEED).append(", first ").append(VALUES).append(" values\n");
    for (ValueSpec spec : specs()) {
      ValueGenerator gen = ValueGenerator.create(spec, SEED, "golden", 0, 1);
      sb.append(spec.name()).append(':');
      for (int i = 0; i < VALUES; i++) {
        Object v = gen.next();
        sb.append(i == 0 ? " " : " | ")
            .append(v == null ? "null" : v.getClass().getSimpleName() + " " + v);
      }
      sb.append('\n');
    }
    QueryQueue queue = QueryQueue.shuffled(new int[] {3, 2, 5}, SEED);
    sb.append("queue:");
    for (int q : queue.toArray()) {
      sb.append(' ').append(q);
    }
    sb.append('\n');
    return sb.toString();
  }

  static List<ValueSpec> specs() {
    List<Distribution> all =
        List.of(
            Distribution.uniform(),
            Distribution.normal(),
            Distribution.zipf(1.1),
            Distribution.exponential(5),
            Distribution.sequential());
    List<ValueSpec> specs = new ArrayList<>();
    for (Distribution d : all) {
      String suffix = "/" + d.kind().label();
      specs.add(
          build(
              ValueSpec.builder("integer" + suffix, ValueType.INTEGER)
                  .distribution(d)
                  .range(-1000L, 1000L)));
      specs.add(
          build(
              ValueSpec.builder("long" + suffix, ValueType.LONG)
                  .distribution(d)
                  .range(0L, 1_000_000_000_000L)));
      specs.add(
          build(
              ValueSpec.builder("decimal" + suffix, ValueType.DECIMAL)
                  .distribution(d)
                  .decimal(10, 2)
                  .range(new BigDecimal("0.00"), new BigDecimal("99999.99"))));
      if (d.isContinuous()) {
        specs.add(
            build(
                ValueSpec.builder("double" + suffix, ValueType.DOUBLE)
                    .distribution(d)
                    .range(0.0, 1000.0)));
      }
      specs.add(
          build(
              ValueSpec.builder("string" + suffix, ValueType.STRING)
                  .distribution(d)
                  .alphabet(Alphabet.of(List.of("en", "digits")))
                  .length(3, 10)
                  .range(1L, 1000L)));
      specs.add(
          build(
              ValueSpec.builder("string-ru" + suffix, ValueType.STRING)
                  .distribution(d)
                  .alphabet(Alphabet.of(List.of("ru")))
                  .length(4, 8)
                  .range(1L, 1000L)));
      specs.add(
          build(
              ValueSpec.builder("datetime" + suffix, ValueType.DATETIME)
                  .distribution(d)
                  .range(
                      Instant.parse("1999-10-26T09:00:00Z"),
                      Instant.parse("2015-10-21T07:28:00Z"))));
      specs.add(
          build(
              ValueSpec.builder("date" + suffix, ValueType.DATE)
                  .distribution(d)
                  .range(LocalDate.parse("2000-01-01"), LocalDate.parse("2030-12-31"))));
      specs.add(
          build(
              ValueSpec.builder("choice" + suffix, ValueType.CHOICE)
                  .distribution(d)
                  .choices(List.of("red", "green", "blue", "cyan", "magenta"), List.of())));
      specs.add(
          build(
              ValueSpec.builder("integer-unique" + suffix, ValueType.INTEGER)
                  .distribution(d)
                  .range(0L, 1_000_000L)
                  .unique(true)));
    }
    specs.add(
        build(
            ValueSpec.builder("choice/weighted", ValueType.CHOICE)
                .choices(List.of("a", "b", "c"), List.of(6.0, 3.0, 1.0))));
    specs.add(build(ValueSpec.builder("boolean", ValueType.BOOLEAN).probability(0.25)));
    specs.add(build(ValueSpec.builder("uuid", ValueType.UUID)));
    specs.add(build(ValueSpec.builder("constant", ValueType.CONSTANT).constant("fixed")));
    specs.add(
        build(
            ValueSpec.builder("integer/nullable", ValueType.INTEGER)
                .range(1L, 9L)
                .nullPercentage(40)));
    return specs;
  }

  private static ValueSpec build(ValueSpec.Builder builder) {
    return builder.build();
  }
}
