package io.fusillade.gatling;

import io.fusillade.limit.LimitWatch;
import io.fusillade.record.LatencyMetric;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends the arrivals of a limit search at a rate that can change while the run goes on, which
 * Gatling's injection profiles (fixed before the run) cannot: a fixed number of virtual users, the
 * lanes, wait here between requests, and one thread hands the next due arrival to the next waiting
 * lane, on that lane's event loop, with the arrival's due time in its session ({@link
 * DueTime#ATTRIBUTE}). Fusillade's actions count a request's latency from that due time, so an
 * arrival that waited for a free lane (every lane busy with a slow system) is charged its wait,
 * exactly as in an open model: coordinated omission is not hidden by the bounded lanes.
 *
 * <p>A new rate starts a new schedule at once: arrivals of the old rate not yet sent are dropped
 * (their step is over). How late this thread itself hands out an arrival while a lane was free is
 * the injector's own lag, recorded in {@code injector.pace.lag} and judged beside the event loops'
 * {@code injector.lag} (a starved injector then fails the step as the injector's, never the
 * system's).
 */
final class LimitPacer implements LimitWatch.Pace, AutoCloseable {
  /** The session attribute of a lane released at the end of the search: it leaves. */
  static final String DONE_ATTRIBUTE = "fusillade.limit.done";

  private record Lane(Session session, Action next) {}

  private final ConcurrentLinkedQueue<Lane> idle = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile double rate;
  private volatile boolean rateChanged;
  private volatile boolean finished;
  private volatile boolean started;
  private volatile LatencyMetric lag;

  private final int lanes;

  LimitPacer(double firstRate, int lanes) {
    this.rate = firstRate;
    this.lanes = lanes;
    this.thread = new Thread(this::dispatch, "fusillade-limit-pacer");
    thread.setDaemon(true);
    DueTime.active = true;
  }

  /** Records this pacer's own lateness into {@code metric} (the injector lag). */
  void lagInto(LatencyMetric metric) {
    this.lag = metric;
  }

  /** A lane waits here for its next arrival ({@code next} runs the request). */
  void arrive(Session session, Action next) {
    if (finished) {
      next.execute(session.set(DONE_ATTRIBUTE, Boolean.TRUE));
      return;
    }
    idle.add(new Lane(session, next));
    if (!started) {
      synchronized (this) {
        if (!started) {
          started = true;
          thread.start();
        }
      }
    }
    LockSupport.unpark(thread);
    if (finished) {
      releaseAll(); // finish() may have drained the queue before this lane was added
    }
  }

  @Override
  public void rate(double perSecond) {
    rate = perSecond;
    rateChanged = true;
    LockSupport.unpark(thread);
  }

  @Override
  public void pause() {
    rate(0);
  }

  /** Every lane is waiting here: none has a request in flight. */
  @Override
  public boolean drained() {
    return idle.size() >= lanes;
  }

  @Override
  public void finish() {
    finished = true;
    LockSupport.unpark(thread);
    releaseAll();
  }

  @Override
  public void close() {
    finish();
  }

  private void releaseAll() {
    Lane lane;
    while ((lane = idle.poll()) != null) {
      Lane leaving = lane;
      leaving
          .session()
          .eventLoop()
          .execute(() -> leaving.next().execute(leaving.session().set(DONE_ATTRIBUTE, true)));
    }
  }

  private void dispatch() {
    long interval = intervalNanos(rate);
    long due = System.nanoTime();
    // The last time every lane was busy: an arrival due before it waited for a lane (the system's
    // doing), one due after it found a lane free, and how late it went is this thread's own lag.
    long starved = Long.MIN_VALUE;
    while (!finished) {
      if (rateChanged) {
        rateChanged = false;
        interval = intervalNanos(rate);
        due = System.nanoTime(); // a new step: a new schedule
      }
      if (rate <= 0) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100)); // paused: a rate wakes it
        continue;
      }
      long now = System.nanoTime();
      if (due > now) {
        LockSupport.parkNanos(Math.min(due - now, TimeUnit.MILLISECONDS.toNanos(100)));
        continue;
      }
      Lane lane = idle.poll();
      if (lane == null) {
        // Every lane is busy: the arrival stays due, and is charged its wait when a lane frees.
        starved = now;
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        continue;
      }
      LatencyMetric metric = lag;
      if (metric != null && due > starved) {
        metric.recordMicros(Math.max(0, (now - due) / 1000));
      }
      long arrival = due;
      lane.session()
          .eventLoop()
          .execute(() -> lane.next().execute(lane.session().set(DueTime.ATTRIBUTE, arrival)));
      due += interval;
    }
    releaseAll();
  }

  private static long intervalNanos(double perSecond) {
    return perSecond <= 0 ? Long.MAX_VALUE : Math.max(1, Math.round(1e9 / perSecond));
  }
}
