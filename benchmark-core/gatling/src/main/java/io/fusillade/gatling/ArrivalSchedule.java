package io.fusillade.gatling;

import java.time.Duration;
import java.util.List;

/**
 * When each arrival of an open workload is due: the rate is piecewise linear (a constant rate, a
 * ramp from one rate to another, a hold), and arrival {@code n} (from 0) is due when the expected
 * count of arrivals since the start, the integral of the rate, reaches {@code n}. A constant rate r
 * thus sends at 0, 1/r, 2/r...; a ramp sends ever closer together. The schedule has as many
 * arrivals as its integral, rounded down ({@link #count()}).
 *
 * <p>Immutable; a {@link Cursor} walks it in order, in O(1) per arrival.
 */
public final class ArrivalSchedule {
  /**
   * A stretch of the profile: the rate goes linearly from {@code from} to {@code to} per second
   * over {@code length}.
   */
  public record Segment(double from, double to, Duration length) {
    public Segment {
      if (!(from >= 0) || !(to >= 0) || Double.isInfinite(from) || Double.isInfinite(to)) {
        throw new IllegalArgumentException("a rate is finite and 0 or more: " + from + ", " + to);
      }
      if (length.isNegative()) {
        throw new IllegalArgumentException("a segment's length is 0 or more: " + length);
      }
    }

    /** The rate held for {@code length}. */
    public static Segment constant(double rate, Duration length) {
      return new Segment(rate, rate, length);
    }

    double seconds() {
      return length.toNanos() / 1e9;
    }

    /** The expected arrivals of the whole segment. */
    double area() {
      return (from + to) / 2 * seconds();
    }
  }

  private final List<Segment> segments;
  private final long count;
  private final double seconds;

  /** The schedule of these segments, one after the other. */
  public ArrivalSchedule(List<Segment> segments) {
    this.segments = List.copyOf(segments);
    double area = 0;
    double length = 0;
    for (Segment s : this.segments) {
      area += s.area();
      length += s.seconds();
    }
    // 1e-9 of slack: 1,000/s for 30 s is 30,000 arrivals even if the sum comes to 29,999.999...
    this.count = (long) Math.floor(area + 1e-9 * Math.max(1, area));
    this.seconds = length;
  }

  /** Its segments, in order. */
  public List<Segment> segments() {
    return segments;
  }

  /** How many arrivals the schedule sends. */
  public long count() {
    return count;
  }

  /** Its length, in seconds. */
  public double seconds() {
    return seconds;
  }

  /** A cursor at the start, to ask for arrivals in increasing order. */
  public Cursor cursor() {
    return new Cursor();
  }

  /** Walks the schedule forward: each call to {@link #at} is for an arrival after the last. */
  public final class Cursor {
    private int segment;
    private double before; // expected arrivals before the current segment
    private double start; // seconds from the schedule's start to the current segment's

    private Cursor() {}

    /**
     * Seconds from the schedule's start to when arrival {@code n} is due, or -1 when the schedule
     * has no arrival {@code n}.
     *
     * @param n from 0; not less than in the previous call
     */
    public double at(long n) {
      if (n < 0 || n >= count) {
        return -1;
      }
      while (segment < segments.size()) {
        Segment s = segments.get(segment);
        double area = s.area();
        if (n < before + area || segment == segments.size() - 1) {
          return start + within(s, n - before);
        }
        before += area;
        start += s.seconds();
        segment++;
      }
      return -1;
    }
  }

  /** Seconds into {@code s} at which its expected count reaches {@code m} (0 ≤ m ≤ its area). */
  static double within(Segment s, double m) {
    double t = s.seconds();
    if (m <= 0 || t == 0) {
      return 0;
    }
    double slope = (s.to() - s.from()) / t; // rate change per second
    double x;
    if (Math.abs(slope) < 1e-12) {
      x = m / s.from();
    } else {
      // from*x + slope*x²/2 = m, in the form that stays exact when the slope is small
      double root = Math.sqrt(Math.max(0, s.from() * s.from() + 2 * slope * m));
      x = 2 * m / (s.from() + root);
    }
    return Math.min(Math.max(x, 0), t);
  }
}
