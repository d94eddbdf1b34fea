package io.fusillade.gatling;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoop;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * One lane of {@link FusilladeArrivals}: a virtual user that sends every L-th arrival of the
 * schedule (L lanes) from a timer on its own event loop, each as a copy of its session carrying the
 * arrival's due time and this lane, and leaves once its arrivals are sent and answered. Everything
 * but {@link #arrived} runs on the lane's event loop.
 */
final class ArrivalLane {
  /** Arrivals sent in one turn of the event loop before it is given back (a late timer). */
  private static final int BURST = 64;

  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(ArrivalLane.class);

  /** How far ahead of its due time an arrival may be sent with one due before it. */
  private static final long AHEAD = 1_000_000;

  /** How long before an arrival's due time its lane's timer wakes. */
  private static final long LEAD = 100_000;

  private final Session session;
  private final Action next;
  private final EventLoop loop;
  private final ArrivalSchedule.Cursor cursor;
  private final int step;
  private final long start;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Runnable turn = this::turn;
  private long arrival;
  private volatile boolean sent;
  private boolean left;

  private ArrivalLane(
      Session session, Action next, ArrivalSchedule schedule, int lane, int lanes, long start) {
    this.session = session;
    this.next = next;
    this.loop = session.eventLoop();
    this.cursor = schedule.cursor();
    this.arrival = lane;
    this.step = lanes;
    this.start = start;
  }

  /**
   * Sends the arrivals due up to {@link #AHEAD} from now, then sets a timer for {@link #LEAD}
   * before the next one's due time, or notes that all are sent. Waking a little before keeps the
   * timer's own wake-up out of the requests' latency (Gatling's injector, which starts users on
   * whole milliseconds, sends up to a millisecond early too), and sending ahead by more than that
   * lets one timer send several arrivals at a high rate (about ten per lane at 20,000/s) where a
   * timer each would wake the event loop ten times as often. An arrival is thus sent up to {@link
   * #AHEAD} early, and then its latency counts from when it was really sent ({@link DueTime}: the
   * earlier of the two); it is sent late only when the event loop itself is late, and that lateness
   * counts.
   */
  private void turn() {
    long now = System.nanoTime();
    for (int burst = 0; ; burst++) {
      double at = FusilladeRun.loadStopped() ? -1 : cursor.at(arrival);
      if (at < 0) {
        sent = true;
        leaveIfDone();
        return;
      }
      long due = start + (long) (at * 1e9);
      if (due > now + AHEAD) {
        // from the clock now: sending took time since `now` was read
        loop.schedule(turn, Math.max(0, due - LEAD - System.nanoTime()), TimeUnit.NANOSECONDS);
        return;
      }
      if (burst == BURST) {
        loop.execute(turn); // behind: let the responses waiting on this loop in between
        return;
      }
      inFlight.incrementAndGet();
      arrival += step;
      try {
        next.execute(
            session.set(DueTime.ATTRIBUTE, due).set(FusilladeArrivals.LANE_ATTRIBUTE, this));
      } catch (RuntimeException e) {
        // A chain that throws loses this arrival, never the lane (which would hang the run).
        LOG.error("An arrival's chain failed: {}", e.toString(), e);
        arrived();
      }
    }
  }

  /** An arrival of this lane has been through the chain. */
  private void arrived() {
    if (inFlight.decrementAndGet() == 0 && sent) {
      if (loop.inEventLoop()) {
        leaveIfDone();
      } else {
        loop.execute(this::leaveIfDone);
      }
    }
  }

  private void leaveIfDone() {
    if (!left && sent && inFlight.get() == 0) {
      left = true;
      next.execute(session.set(FusilladeArrivals.DONE_ATTRIBUTE, Boolean.TRUE));
    }
  }

  /** The first action of the scenario: a lane arrives and starts its timer. */
  static final class Start extends NamedAction {
    private final ArrivalSchedule schedule;
    private final int lanes;
    private final FusilladeArrivals.Shared shared;
    private final Action next;

    Start(ArrivalSchedule schedule, int lanes, FusilladeArrivals.Shared shared, Action next) {
      super("arrivals");
      this.schedule = schedule;
      this.lanes = lanes;
      this.shared = shared;
      this.next = next;
    }

    @Override
    public void execute(Session session) {
      int lane = shared.nextLane();
      if (lane >= lanes) { // more users injected than lanes: the extra ones leave at once
        next.execute(session.set(FusilladeArrivals.DONE_ATTRIBUTE, Boolean.TRUE));
        return;
      }
      new ArrivalLane(session, next, schedule, lane, lanes, shared.start()).turn();
    }
  }

  /** The last action of the chain: an arrival leaves (its lane counts it), a lane goes on. */
  static final class Leave extends NamedAction {
    private final Action next;

    Leave(Action next) {
      super("arrival end");
      this.next = next;
    }

    @Override
    public void execute(Session session) {
      scala.Option<Object> lane = session.attributes().get(FusilladeArrivals.LANE_ATTRIBUTE);
      if (lane.isDefined()) {
        ((ArrivalLane) lane.get()).arrived();
      } else {
        next.execute(session);
      }
    }
  }
}
