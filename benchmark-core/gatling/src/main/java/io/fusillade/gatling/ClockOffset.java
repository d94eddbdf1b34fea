package io.fusillade.gatling;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How far this injector's wall clock is from a reference clock (the system under test's, which all
 * the injectors of a test share), measured as Cristian's algorithm does: read the local clock, ask
 * the reference for its time, read the local clock again; the reference's answer belongs to the
 * middle of that round trip, give or take half of it. Of several samples the one with the shortest
 * round trip is kept, as it bounds the error best.
 *
 * <p>The injectors of one test each record theirs ({@code clockOffsetMs} in {@code run.json}), wait
 * for {@code --start-at} on the reference's clock, and the merged report flags injectors whose
 * clocks disagree: their seconds would not line up.
 *
 * @param offsetMicros the reference's time minus this clock's, microseconds
 * @param uncertaintyMicros half the round trip of the kept sample: the offset is within this
 * @param reference what was asked, for the record (never with a password)
 */
public record ClockOffset(long offsetMicros, long uncertaintyMicros, String reference) {
  /** The samples taken: a few, so that one slow round trip does not decide. */
  public static final int SAMPLES = 8;

  /** A reference clock's time, microseconds since the epoch. */
  @FunctionalInterface
  public interface Reference {
    /**
     * @return the reference's time now, microseconds since the epoch
     * @throws Exception when it cannot be read
     */
    long nowMicros() throws Exception;
  }

  /**
   * Measures the offset.
   *
   * @param reference the reference clock
   * @param name what it is, for the record
   * @return the offset of the sample with the shortest round trip
   * @throws Exception when the reference cannot be read
   */
  public static ClockOffset measure(Reference reference, String name) throws Exception {
    long bestRoundTrip = Long.MAX_VALUE;
    long bestOffset = 0;
    for (int i = 0; i < SAMPLES; i++) {
      long before = micros(Instant.now());
      long theirs = reference.nowMicros();
      long after = micros(Instant.now());
      long roundTrip = after - before;
      if (roundTrip >= 0 && roundTrip < bestRoundTrip) {
        bestRoundTrip = roundTrip;
        bestOffset = theirs - (before + roundTrip / 2);
      }
    }
    return new ClockOffset(bestOffset, Math.max(1, bestRoundTrip / 2), name);
  }

  /** This clock's time on the reference's clock, milliseconds since the epoch. */
  public long referenceMillis(long localMillis) {
    return localMillis + Math.round(offsetMicros / 1000.0);
  }

  /** What {@code run.json} records: {@code clockOffsetMs}, {@code clockUncertaintyMs}, ... */
  public Map<String, Object> parameters() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("clockOffsetMs", offsetMicros / 1000.0);
    p.put("clockUncertaintyMs", uncertaintyMicros / 1000.0);
    p.put("clockReference", reference);
    return p;
  }

  private static long micros(Instant instant) {
    return TimeUnit.SECONDS.toMicros(instant.getEpochSecond()) + instant.getNano() / 1_000;
  }
}
