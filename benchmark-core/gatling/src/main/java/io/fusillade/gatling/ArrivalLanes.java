package io.fusillade.gatling;

import io.fusillade.record.LatencyMetric;
import io.fusillade.record.RunRecorder;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The lanes of one {@link FusilladeArrivals} scenario and what they share: the plan they send (a
 * schedule from a start), their bound of arrivals in flight and what a full lane does, and the
 * counts of the arrivals they sent, refused and did not send, which the run record keeps ({@code
 * health}'s {@code arrivals <scenario>}, and a flag when a full lane refused any).
 *
 * <p>A fixed plan is the whole load, known before the run. An open plan is a limit search's ({@link
 * LimitPacer}): its rate changes while the run goes on ({@link #replan}), each new rate a new
 * schedule from the moment it is set, and its lanes go on until {@link #finish}.
 */
final class ArrivalLanes {
  /** What an arrival due when its lane is full does. */
  enum WhenFull {
    /**
     * It is refused at once: reported as a KO of the injector ({@link DueTime#LANE_FULL}) by the
     * chain's requests, which send nothing, and counted as refused. An open model's default: the
     * lanes' bound is the injector's memory, not a part of the load.
     */
    REFUSE,
    /**
     * It waits in its lane (nothing is allocated for it: the lane's cursor stays) until a response
     * makes room, and its latency counts from its due time, the wait included: a limit search's
     * bounded concurrency, where a system past its capacity shows as latency, not as injector
     * failures.
     */
    WAIT
  }

  /**
   * What the lanes send.
   *
   * @param schedule the arrivals
   * @param start when the schedule starts, on the {@link System#nanoTime()} clock
   * @param open whether the lanes wait for another plan once this one has sent its arrivals
   */
  record Plan(ArrivalSchedule schedule, long start, boolean open) {}

  private final String scenario;
  private final int count;
  private final int capacity;
  private final WhenFull whenFull;
  private final boolean open;
  private final List<ArrivalLane> joined = new CopyOnWriteArrayList<>();
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong unsent = new AtomicLong();
  private final AtomicBoolean recorded = new AtomicBoolean();
  private final ArrivalSchedule schedule; // a fixed plan's
  private ArrivalSchedule next; // guarded by this: the schedule of the first plan
  private int lanes; // guarded by this: lanes joined
  private volatile Plan plan; // null until the first lane joins
  private volatile boolean finished;
  private volatile LatencyMetric lag;

  /**
   * @param scenario the scenario's name, for the record
   * @param schedule the arrivals (an open plan's first)
   * @param count how many lanes
   * @param inFlight the most arrivals in flight, all lanes together
   * @param whenFull what an arrival due when its lane is full does
   * @param open whether the plan is open ({@link #replan})
   */
  ArrivalLanes(
      String scenario,
      ArrivalSchedule schedule,
      int count,
      int inFlight,
      WhenFull whenFull,
      boolean open) {
    this.scenario = scenario;
    this.schedule = schedule;
    this.next = schedule;
    this.count = count;
    this.capacity = Math.max(1, (inFlight + count - 1) / count);
    this.whenFull = whenFull;
    this.open = open;
  }

  /** How many lanes send the arrivals. */
  int count() {
    return count;
  }

  /** The most arrivals one lane holds in flight. */
  int capacity() {
    return capacity;
  }

  WhenFull whenFull() {
    return whenFull;
  }

  /** The plan the lanes send now (read on every turn: one volatile read). */
  Plan plan() {
    return plan;
  }

  /** Whether the lanes send no more: the arrivals ended ({@link #finish}) or the load stopped. */
  boolean stopping() {
    return finished || FusilladeRun.loadStopped();
  }

  /** Where the lanes record how late they sent an arrival they had room for, or null. */
  LatencyMetric lag() {
    return lag;
  }

  void lagInto(LatencyMetric metric) {
    lag = metric;
  }

  /**
   * A lane joins: the first one starts the plan's clock. Returns null when every lane has joined
   * (more users were injected than lanes).
   */
  ArrivalLane join(Session session, Action next) {
    ArrivalLane lane;
    synchronized (this) {
      if (lanes >= count) {
        return null;
      }
      if (plan == null) {
        plan = new Plan(this.next, System.nanoTime(), open);
      }
      lane = new ArrivalLane(this, session, next, lanes++, plan);
    }
    joined.add(lane);
    return lane;
  }

  /**
   * From now on the lanes send {@code schedule} (an open plan's new rate): what the old plan owed
   * and had not sent is counted as not sent.
   */
  void replan(ArrivalSchedule schedule) {
    synchronized (this) {
      if (plan == null) {
        next = schedule; // no lane yet: the first one starts it
        return;
      }
      plan = new Plan(schedule, System.nanoTime(), open);
    }
    joined.forEach(ArrivalLane::wake);
  }

  /** The lanes send no more and leave once their arrivals in flight are answered. */
  void finish() {
    finished = true;
    joined.forEach(ArrivalLane::wake);
  }

  /** Whether no arrival is in flight. */
  boolean drained() {
    for (ArrivalLane lane : joined) {
      if (lane.inFlight() > 0) {
        return false;
      }
    }
    return true;
  }

  /** A lane's turn sent {@code sent} arrivals, {@code refused} of them refused. */
  void count(int sent, int refused) {
    if (sent > 0) {
      this.sent.addAndGet(sent);
    }
    if (refused > 0) {
      this.refused.addAndGet(refused);
    }
  }

  /** Arrivals that were due or scheduled and will not be sent (the load stopped, a new plan). */
  void unsent(long arrivals) {
    if (arrivals > 0) {
      unsent.addAndGet(arrivals);
    }
  }

  /** Arrivals sent (refused ones included). */
  long sent() {
    return sent.get();
  }

  /** Arrivals refused by a full lane. */
  long refused() {
    return refused.get();
  }

  /** Arrivals not sent. */
  long unsent() {
    return unsent.get();
  }

  /**
   * At the end of the run, {@code run.json} gets the counts (health {@code arrivals <scenario>}),
   * and a flag when a full lane refused arrivals: they are the injector's failures.
   */
  void recordInto(RunRecorder run) {
    if (!recorded.compareAndSet(false, true)) {
      return;
    }
    run.onFinish(
        () -> {
          Map<String, Object> counts = new LinkedHashMap<>();
          if (!open) {
            counts.put("scheduled", schedule.count());
          }
          counts.put("sent", sent() - refused());
          counts.put("refused", refused());
          counts.put("unsent", unsent());
          counts.put("lanes", count);
          counts.put("inFlightPerLane", capacity);
          run.health("arrivals " + scenario, counts);
          if (refused() > 0) {
            run.flag(
                "injector lanes full: "
                    + refused()
                    + " arrivals of '"
                    + scenario
                    + "' were not sent, their lane holding "
                    + capacity
                    + " in flight (KO '"
                    + DueTime.LANE_FULL
                    + "', the injector's)");
          }
        });
  }
}
