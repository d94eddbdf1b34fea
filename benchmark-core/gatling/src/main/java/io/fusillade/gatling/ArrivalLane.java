package io.fusillade.gatling;

import io.fusillade.record.LatencyMetric;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.netty.channel.EventLoop;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.LoggerFactory;

/**
 * One lane of {@link FusilladeArrivals}: a virtual user that sends every L-th arrival of its
 * scenario's plan (L lanes) from a timer on its own event loop, each as a copy of its session
 * carrying the arrival's due time and this lane, and leaves once its arrivals are sent and
 * answered. Everything but {@link #arrived} and {@link #wake} runs on the lane's event loop.
 *
 * <p>The cost model, per arrival: one step of the schedule's cursor (a few floating-point
 * operations, {@link ArrivalSchedule}), one session copy with the due time (a boxed {@code long}),
 * the chain's own actions, and two uncontended atomic operations on the lane's count of arrivals in
 * flight; no lock, no thread hand-off, no allocation of a Gatling virtual user. Per timer: one
 * scheduled task on the event loop, which sends every arrival due within {@link #AHEAD} (about ten
 * at 20,000/s over two lanes), and one atomic add of the lane's counts into its scenario's ({@link
 * ArrivalLanes}). A Gatling virtual user per arrival costs, besides, the user's creation and, at
 * its end, a message to Gatling's injector that wakes a thread of its own: a quarter of the
 * injector's CPU per request at 2,000/s on two cores.
 *
 * <p>A lane holds at most {@link ArrivalLanes#capacity} arrivals in flight. An arrival due when it
 * holds that many is either refused at once, reported as the injector's failure ({@link
 * DueTime#LANE_FULL}, never sent), or waits until a response makes room and is then sent, its
 * latency still counted from its due time ({@link ArrivalLanes.WhenFull}). Either way it is
 * counted: no arrival is dropped unseen.
 */
final class ArrivalLane {
  /** Arrivals sent in one turn of the event loop before it is given back (a late timer). */
  private static final int BURST = 64;

  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(ArrivalLane.class);

  /** How far ahead of its due time an arrival may be sent with one due before it. */
  private static final long AHEAD = 1_000_000;

  /** How long before an arrival's due time its lane's timer wakes. */
  private static final long LEAD = 100_000;

  private final ArrivalLanes lanes;
  private final Session base; // the lane's session, with this lane in it
  private final Action next;
  private final EventLoop loop;
  private final int first; // this lane's first arrival, 0 to L-1
  private final int step; // L
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicBoolean waiting = new AtomicBoolean(); // full, waiting for room (WAIT)
  private final Runnable turn = this::turn;
  private ArrivalLanes.Plan plan;
  private ArrivalSchedule.Cursor cursor;
  private long start;
  private long arrival;
  private long fullSince = Long.MIN_VALUE; // when the lane was last found full
  private ScheduledFuture<?> timer;
  private volatile boolean over; // sends no more: its arrivals are sent, or the load stopped
  private boolean left;

  ArrivalLane(ArrivalLanes lanes, Session session, Action next, int lane, ArrivalLanes.Plan plan) {
    this.lanes = lanes;
    this.base = session.set(FusilladeArrivals.LANE_ATTRIBUTE, this);
    this.next = next;
    this.loop = session.eventLoop();
    this.first = lane;
    this.step = lanes.count();
    follow(plan);
  }

  /** Sends what is due now: the first turn, on the lane's event loop. */
  void begin() {
    turn();
  }

  /**
   * Looks again at once, from any thread: the plan changed, or the arrivals end ({@link
   * ArrivalLanes#finish}). A timer set for the old plan is cancelled.
   */
  void wake() {
    loop.execute(turn);
  }

  /** Arrivals in flight: sent, not yet through the chain. */
  int inFlight() {
    return inFlight.get();
  }

  private void follow(ArrivalLanes.Plan p) {
    plan = p;
    cursor = p.schedule().cursor();
    start = p.start();
    arrival = first;
  }

  /**
   * Sends the arrivals due up to {@link #AHEAD} from now, then sets a timer for {@link #LEAD}
   * before the next one's due time, or notes that all are sent. Waking a little before keeps the
   * timer's own wake-up out of the requests' latency (Gatling's injector, which starts users on
   * whole milliseconds, sends up to a millisecond early too), and sending ahead by more than that
   * lets one timer send several arrivals at a high rate (about ten per lane at 20,000/s) where a
   * timer each would wake the event loop ten times as often. An arrival is thus sent up to {@link
   * #AHEAD} early, and then its latency counts from when it was really sent ({@link DueTime}: the
   * earlier of the two); it is sent late only when the event loop itself is late (or, waiting for
   * room, the responses were), and that lateness counts.
   */
  private void turn() {
    if (timer != null) { // a turn before its timer (a wake-up, room made): one timer at a time
      timer.cancel(false);
      timer = null;
    }
    if (over) {
      leaveIfDone();
      return;
    }
    long now = System.nanoTime();
    ArrivalLanes.Plan current = lanes.plan();
    if (current != plan) {
      lanes.unsent(owed(now)); // a new step: what the old one still owed is not sent
      follow(current);
    }
    int sent = 0;
    int refused = 0;
    try {
      for (int burst = 0; ; burst++) {
        if (lanes.stopping()) {
          stop(now);
          return;
        }
        double at = cursor.at(arrival);
        if (at < 0) {
          if (!plan.open()) {
            over = true; // every arrival of the schedule is sent: it leaves once counted, below
          } // an open plan's lane waits for the next plan: wake() comes with it
          return;
        }
        long due = start + (long) (at * 1e9);
        if (due > now + AHEAD) {
          // from the clock now: sending took time since `now` was read
          timer = loop.schedule(turn, Math.max(0, due - LEAD - System.nanoTime()), NANOS);
          return;
        }
        if (burst == BURST) {
          loop.execute(turn); // behind: let the responses waiting on this loop in between
          return;
        }
        Object mark = due;
        if (inFlight.get() >= lanes.capacity()) {
          if (lanes.whenFull() == ArrivalLanes.WhenFull.WAIT) {
            fullSince = now;
            waiting.set(true);
            if (inFlight.get() >= lanes.capacity()) {
              return; // arrived() wakes the lane when a response makes room
            }
            waiting.set(false); // room was made meanwhile
          } else {
            mark = new DueTime.Refused(due);
            refused++;
          }
        }
        LatencyMetric lag = lanes.lag();
        if (lag != null && due > fullSince) {
          // how late the lane itself sent an arrival it had room for: the injector's own lag
          lag.recordMicros(Math.max(0, (now - due) / 1000));
        }
        inFlight.incrementAndGet();
        arrival += step;
        sent++;
        try {
          next.execute(base.set(DueTime.ATTRIBUTE, mark));
        } catch (RuntimeException e) {
          // A chain that throws loses this arrival, never the lane (which would hang the run).
          LOG.error("An arrival's chain failed: {}", e.toString(), e);
          arrived();
        }
      }
    } finally {
      lanes.count(sent, refused);
      // Leaving tells the population its lane is done, and what follows reads the lanes' counts:
      // counted first, so that a lane never leaves with its last turn's arrivals uncounted.
      leaveIfDone();
    }
  }

  /** The load stopped: what the lane has not sent is counted, and it leaves. */
  private void stop(long now) {
    over = true;
    if (plan.open()) {
      lanes.unsent(owed(now));
    } else {
      long count = plan.schedule().count();
      lanes.unsent(arrival < count ? (count - arrival + step - 1) / step : 0);
    } // it leaves once its turn is counted (turn's finally)
  }

  /** This lane's arrivals of the current plan due by {@code now} and not sent; skips them. */
  private long owed(long now) {
    long owed = 0;
    for (double at; (at = cursor.at(arrival)) >= 0 && start + (long) (at * 1e9) <= now; ) {
      owed++;
      arrival += step;
    }
    return owed;
  }

  /** An arrival of this lane has been through the chain: a place is free. */
  private void arrived() {
    int left = inFlight.decrementAndGet();
    if (waiting.get() && waiting.compareAndSet(true, false)) {
      loop.execute(turn);
    } else if (left == 0 && over) {
      if (loop.inEventLoop()) {
        leaveIfDone();
      } else {
        loop.execute(this::leaveIfDone);
      }
    }
  }

  private void leaveIfDone() {
    if (!left && over && inFlight.get() == 0) {
      left = true;
      next.execute(base.set(FusilladeArrivals.DONE_ATTRIBUTE, Boolean.TRUE));
    }
  }

  private static final TimeUnit NANOS = TimeUnit.NANOSECONDS;

  /** The first action of the scenario: a lane arrives and starts its timer. */
  static final class Start extends NamedAction {
    private final ArrivalLanes lanes;
    private final Action next;

    Start(ArrivalLanes lanes, Action next) {
      super("arrivals");
      this.lanes = lanes;
      this.next = next;
    }

    @Override
    public void execute(Session session) {
      ArrivalLane lane = lanes.join(session, next);
      if (lane == null) { // more users injected than lanes: the extra ones leave at once
        next.execute(session.set(FusilladeArrivals.DONE_ATTRIBUTE, Boolean.TRUE));
        return;
      }
      lane.begin();
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
