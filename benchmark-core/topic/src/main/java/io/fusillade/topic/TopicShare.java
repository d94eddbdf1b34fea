package io.fusillade.topic;

/**
 * One injector's part of a topic test that several injectors run together ({@code fusillade run
 * --injectors N --injector-index I}): which writers and readers are its own, and what the N share
 * so that their records verify one delivery.
 *
 * <ul>
 *   <li><b>Writers</b>: a topic's {@code producers: P} are numbered 0 to P-1 across the test;
 *       injector I opens those numbered I, I+N, I+2N... Without {@code producers}, each sending
 *       thread is a stream, numbered so that no two injectors share a number. Every producer id
 *       carries the test's {@link #runPrefix()}, so each injector's consumers recognise the others'
 *       messages as the run's own, not foreign ones.
 *   <li><b>Readers</b>: a topic's {@code consumers: C} form one consumer group across the test
 *       (named after the run prefix, unless the topic names its group); injector I starts those
 *       numbered I, I+N, ... The load starts only once the whole group (C members, all partitions
 *       assigned) is stable, so no injector sends a message before every partition has a reader
 *       positioned before it.
 *   <li><b>Clock</b>: a message's stamp carries its due time on the test's reference clock ({@link
 *       #clockBaseNanos()} added to the injector's monotonic clock), so that a message sent by one
 *       injector and received by another has an end-to-end latency on one clock, within the
 *       offsets' measured uncertainty.
 * </ul>
 *
 * @param injectors the injectors of the test, 1 or more
 * @param index this injector's, 0 to injectors - 1
 * @param runPrefix the test's 31-bit run prefix, the same on every injector (-1: a random one of
 *     this injector's, for a test it runs alone)
 * @param clockBaseNanos what to add to {@link System#nanoTime()} to read the reference clock, in
 *     nanoseconds since the epoch; 0 for an injector alone, whose stamps stay on its monotonic
 *     clock
 */
public record TopicShare(int injectors, int index, long runPrefix, long clockBaseNanos) {
  /** A test run by one injector. */
  public static final TopicShare ALONE = new TopicShare(1, 0, -1, 0);

  /** Checks the numbers. */
  public TopicShare {
    if (injectors < 1 || index < 0 || index >= injectors) {
      throw new IllegalArgumentException("injector " + index + " of " + injectors);
    }
    if (runPrefix > 0x7fffffffL || (injectors > 1 && runPrefix < 0)) {
      throw new IllegalArgumentException("run prefix " + runPrefix);
    }
  }

  /**
   * The share of an injector of several.
   *
   * @param injectors the injectors of the test
   * @param index this one's
   * @param testId a number every injector of the test derives alike (from its seed and common
   *     start), and the next test does not
   * @param referenceOffsetMicros this injector's clock offset to the reference clock (reference
   *     minus local), microseconds
   */
  public static TopicShare of(int injectors, int index, long testId, long referenceOffsetMicros) {
    java.time.Instant now = java.time.Instant.now();
    long nano = System.nanoTime();
    long epochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
    long base = epochNanos + referenceOffsetMicros * 1000 - nano;
    return new TopicShare(injectors, index, mix(testId) & 0x7fffffffL, base);
  }

  /** Whether this injector runs the test alone. */
  public boolean alone() {
    return injectors == 1;
  }

  /** How many of {@code total} writers or readers are this injector's: those numbered I, I+N... */
  public int ownOf(int total) {
    return total / injectors + (index < total % injectors ? 1 : 0);
  }

  /** The test-wide number of this injector's {@code local}-th writer or reader. */
  public int global(int local) {
    return local * injectors + index;
  }

  /** The consumer group of a topic's readers across the injectors. */
  String groupId(String topic) {
    return "fusillade-" + topic + "-" + Long.toHexString(runPrefix);
  }

  private static long mix(long z) {
    // SplitMix64's finaliser: close test ids (one start a second later) give unrelated prefixes
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
