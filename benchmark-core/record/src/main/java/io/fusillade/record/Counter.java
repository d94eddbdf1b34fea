package io.fusillade.record;

import java.util.concurrent.atomic.LongAdder;

/**
 * A monotonic count (bytes, documents, messages) whose per-second increase is written to the run
 * record.
 */
public final class Counter {
  private final String name;
  private final LongAdder adder = new LongAdder();

  Counter(String name) {
    this.name = name;
  }

  public String name() {
    return name;
  }

  public void add(long delta) {
    adder.add(delta);
  }

  public void increment() {
    adder.increment();
  }

  /** The total so far. */
  public long total() {
    return adder.sum();
  }
}
