package io.fusillade.gatling.kafka;

import io.fusillade.gen.ValueGenerator;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import java.util.function.IntSupplier;

/** The value size of each message: fixed, or drawn from a generator spec of integers. */
record SizeSource(int min, int max, ValueSpec spec) {

  static SizeSource fixed(int size) {
    if (size < 0) {
      throw new IllegalArgumentException("a value size must be >= 0, got " + size);
    }
    return new SizeSource(size, size, null);
  }

  /** Sizes from an integer or long spec with a range, such as a normal around 1 KiB. */
  static SizeSource of(ValueSpec spec) {
    if (spec.type() != ValueType.INTEGER && spec.type() != ValueType.LONG) {
      throw new IllegalArgumentException(
          "value sizes come from an integer or long spec, not " + spec.type().label());
    }
    if (spec.lower() == null) {
      throw new IllegalArgumentException("a value size spec needs a range, such as [100, 2000]");
    }
    long lo = ((Number) spec.lower()).longValue();
    long hi = ((Number) spec.upper()).longValue();
    if (lo < 0 || hi > 64L * 1024 * 1024) {
      throw new IllegalArgumentException(
          "value sizes must be in [0, 64 MiB], got " + lo + ".." + hi);
    }
    if (spec.nullPercentage() > 0) {
      throw new IllegalArgumentException("a value size spec cannot produce nulls");
    }
    return new SizeSource((int) lo, (int) hi, spec);
  }

  /** The sizes for one action, seeded by the run's seed and the topic. */
  IntSupplier bind(long seed, String topic) {
    if (spec == null) {
      int size = min;
      return () -> size;
    }
    ValueGenerator generator = ValueGenerator.create(spec, seed, topic, 0, 1);
    return () -> {
      synchronized (generator) {
        return ((Number) generator.next()).intValue();
      }
    };
  }
}
