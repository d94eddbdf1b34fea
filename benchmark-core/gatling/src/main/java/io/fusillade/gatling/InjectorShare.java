package io.fusillade.gatling;

import io.fusillade.FusilladeException;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One injector's share of a test that several injectors run together ({@code fusillade run
 * --injectors N --injector-index I}): the rate divided by N, and of the seeded draws (the queries,
 * their values, the injected requests) every N-th, starting at the I-th. Injector I therefore sends
 * exactly the requests a single injector would have sent at the arrivals {@code I, I + N, I + 2N,
 * ...}: together the N send the single injector's requests, none twice and none missing, whatever
 * the seeded values (unique keys stay unique).
 *
 * <p>{@code --start-at} gives the injectors a common wall-clock moment to start their load, so that
 * their seconds line up in the merged report ({@code fusillade report DIR1 DIR2 DIR3}).
 *
 * @param count the injectors of the test, 1 or more
 * @param index this one's, 0 to count - 1
 * @param startAt when the load starts, or null: at once
 */
public record InjectorShare(int count, int index, Instant startAt) {
  /** The system property of the number of injectors. */
  public static final String COUNT = PlanProperties.INJECTORS;

  /** The system property of this injector's index, from 0. */
  public static final String INDEX = PlanProperties.INJECTOR_INDEX;

  /** The system property of the common start, an ISO-8601 instant. */
  public static final String START_AT = PlanProperties.START_AT;

  /** A test run by one injector. */
  public static final InjectorShare ALONE = new InjectorShare(1, 0, null);

  /** Checks the index. */
  public InjectorShare {
    if (count < 1) {
      throw new FusilladeException("--injectors must be 1 or more, got " + count);
    }
    if (index < 0 || index >= count) {
      throw new FusilladeException(
          "--injector-index counts from 0 to --injectors - 1 (" + (count - 1) + "), got " + index);
    }
  }

  /** The share the run plan gives. */
  public static InjectorShare of(RunPlan.Share share) {
    return new InjectorShare(share.injectors(), share.index(), share.startAt());
  }

  /** This JVM's share: its run plan's. */
  public static InjectorShare current() {
    return of(RunPlan.current().share());
  }

  /**
   * An instant as {@code --start-at} takes it: ISO-8601 ({@code 2026-11-25T20:30:00Z}).
   *
   * @throws FusilladeException when it is not one
   */
  public static Instant instant(String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new FusilladeException(
          "--start-at: \"" + text + "\" is not an instant such as 2026-11-25T20:30:00Z");
    }
  }

  /** Whether this injector runs the test alone. */
  public boolean alone() {
    return count == 1;
  }

  /** This injector's part of a rate (arrivals per second) of the whole test. */
  public double rate(double total) {
    return total / count;
  }

  /**
   * The next draw of this injector: draws {@code count} times from the test's seeded sequence and
   * keeps the {@code index}-th, so that the injectors' draws interleave into the single one. The
   * caller holds the sequence's lock across the call: a draw taken in between by another thread
   * would shift the share.
   */
  public <T> T next(Supplier<T> draw) {
    T kept = null;
    for (int i = 0; i < count; i++) {
      T value = draw.get();
      if (i == index) {
        kept = value;
      }
    }
    return kept;
  }

  /**
   * Waits until {@link #startAt()}; returns how late the wait ended (never negative), or zero when
   * there is no common start. A start more than a minute past is an error: the injectors would not
   * start together.
   */
  public Duration awaitStart() {
    return awaitStart(null);
  }

  /**
   * Waits until {@link #startAt()} on a reference clock (the one all the injectors measured their
   * offset to), so that injectors whose clocks disagree still start together; as {@link
   * #awaitStart()} without one.
   *
   * @param clock this injector's offset to the reference, or null for its own clock
   * @return how late the wait ended on that clock (never negative)
   */
  public Duration awaitStart(ClockOffset clock) {
    if (startAt == null) {
      return Duration.ZERO;
    }
    long wait = startAt.toEpochMilli() - now(clock);
    if (wait < -60_000) {
      throw new FusilladeException(
          "--start-at " + startAt + " is " + (-wait / 1000) + " s past: give a moment to come");
    }
    if (wait > 0) {
      try {
        Thread.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Duration.ofMillis(Math.max(0, now(clock) - startAt.toEpochMilli()));
  }

  /**
   * How long before {@link #startAt()} this injector is, on the reference clock as {@link
   * #awaitStart(ClockOffset)} reads it (zero when it is past, or when there is no common start):
   * called when the injector is ready, its margin, which tells a user whether {@code --start-at}
   * gave the injectors enough time to start.
   */
  public Duration untilStart(ClockOffset clock) {
    return startAt == null
        ? Duration.ZERO
        : Duration.ofMillis(Math.max(0, startAt.toEpochMilli() - now(clock)));
  }

  private static long now(ClockOffset clock) {
    long own = System.currentTimeMillis();
    return clock == null ? own : clock.referenceMillis(own);
  }

  /** What {@code run.json} records of the share; nothing for an injector alone. */
  public Map<String, Object> parameters() {
    Map<String, Object> p = new LinkedHashMap<>();
    if (!alone()) {
      p.put("injectors", count);
      p.put("injectorIndex", index);
    }
    if (startAt != null) {
      p.put("startAt", startAt.toString());
    }
    return p;
  }
}
