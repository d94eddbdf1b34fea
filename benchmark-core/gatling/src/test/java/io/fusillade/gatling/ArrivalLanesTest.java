package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.netty.channel.DefaultEventLoop;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lanes on real Netty event loops, with a chain that stands where a protocol's request would
 * be: it takes each arrival with its mark (the due time the request's latency counts from, or the
 * refusal of a full lane), and answers when the test says. What a request does with the mark is
 * {@link FusilladeAction}'s: latency from the earlier of the due time and its own start.
 */
class ArrivalLanesTest {
  private final List<DefaultEventLoop> loops = new ArrayList<>();

  @AfterEach
  void stopLoops() {
    loops.forEach(DefaultEventLoop::shutdownGracefully);
  }

  @Test
  void anArrivalSentLateByABusyEventLoopStillCarriesItsDueTime() throws Exception {
    // 200/s for 1 s on two lanes; one lane's event loop is blocked for 300 ms from 0.4 s
    Chain chain = new Chain(true);
    ArrivalLanes lanes = lanes(List.of(Segment.constant(200, Duration.ofSeconds(1))), 2, 1000);
    DefaultEventLoop blocked = start(lanes, chain, 2).get(0);
    Thread.sleep(400);
    blocked.execute(() -> sleep(300));
    List<Taken> taken = chain.take(200);
    assertThat(chain.left.await(5, TimeUnit.SECONDS)).as("both lanes left").isTrue();

    long first = taken.stream().mapToLong(Taken::due).min().orElseThrow();
    long[] dues = taken.stream().mapToLong(Taken::due).sorted().toArray();
    for (int n = 0; n < dues.length; n++) {
      // arrival n due n / 200 s after the first, whatever the lane's loop was doing
      assertThat((double) (dues[n] - first)).isCloseTo(n * 5e6, offset(1e3));
    }
    // the blocked lane's arrivals due in the block were handed over late, their due time kept: a
    // request counts its latency from it, so the injector's lateness is in it
    long late = taken.stream().filter(t -> t.at() - t.due() > 150_000_000L).count();
    assertThat(late).as("arrivals handed over 150 ms late").isBetween(10L, 40L);
    // the others within a millisecond of it (sent up to 1 ms ahead, the timer's slack after)
    long onTime = taken.stream().filter(t -> Math.abs(t.at() - t.due()) < 20_000_000L).count();
    assertThat(onTime).isGreaterThan(150L);
    assertThat(lanes.sent()).isEqualTo(200);
    assertThat(lanes.refused()).isZero();
    assertThat(lanes.unsent()).isZero();
  }

  @Test
  void aFullLaneRefusesWhatIsDueCountingItRatherThanDroppingIt() throws Exception {
    // 100/s for 0.2 s on one lane that holds 4, nothing answered: 4 sent, 16 refused
    Chain chain = new Chain(false);
    ArrivalLanes lanes = lanes(List.of(Segment.constant(100, Duration.ofMillis(200))), 1, 4);
    start(lanes, chain, 1);
    List<Taken> taken = chain.take(20);
    assertThat(taken.stream().filter(t -> t.mark() instanceof Long)).hasSize(4);
    assertThat(taken.stream().filter(t -> t.mark() instanceof DueTime.Refused)).hasSize(16);
    assertThat(chain.left.getCount()).as("in flight: the lane stays").isEqualTo(1);
    taken.forEach(Taken::answer);
    assertThat(chain.left.await(5, TimeUnit.SECONDS)).as("answered: the lane left").isTrue();
    assertThat(lanes.sent()).isEqualTo(20);
    assertThat(lanes.refused()).isEqualTo(16);
    assertThat(lanes.unsent()).isZero();
  }

  @Test
  void aWaitingLaneSendsWhatWasDueWhenRoomIsMadeWithItsDueTime() throws Exception {
    // 100/s for 0.1 s on one lane that holds 2 and waits when full; answered after 300 ms
    Chain chain = new Chain(false);
    ArrivalLanes lanes =
        new ArrivalLanes(
            "t",
            new ArrivalSchedule(List.of(Segment.constant(100, Duration.ofMillis(100)))),
            1,
            2,
            ArrivalLanes.WhenFull.WAIT,
            false);
    start(lanes, chain, 1);
    List<Taken> taken = new ArrayList<>(chain.take(2));
    Thread.sleep(300);
    assertThat(chain.taken).as("nothing more while full").isEmpty();
    while (taken.size() < 10) {
      taken.get(taken.size() - 2).answer();
      taken.get(taken.size() - 1).answer();
      taken.addAll(chain.take(Math.min(2, 10 - taken.size())));
    }
    taken.get(8).answer();
    taken.get(9).answer();
    assertThat(chain.left.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(taken).allSatisfy(t -> assertThat(t.mark()).isInstanceOf(Long.class));
    // the third was due 20 ms in and went out after the 300 ms wait: its latency has the wait
    assertThat(taken.get(2).at() - taken.get(2).due()).isGreaterThan(250_000_000L);
    assertThat(lanes.sent()).isEqualTo(10);
    assertThat(lanes.refused()).isZero();
  }

  @Test
  void anOpenPlanTakesANewRateAtOnceAndSendsNothingWhilePaused() throws Exception {
    Chain chain = new Chain(true);
    ArrivalLanes lanes =
        new ArrivalLanes("t", LimitPacer.schedule(100), 2, 1000, ArrivalLanes.WhenFull.WAIT, true);
    LimitPacer pacer = new LimitPacer(lanes);
    start(lanes, chain, 2);
    chain.take(10);
    pacer.pause();
    Thread.sleep(50);
    chain.taken.clear();
    Thread.sleep(200);
    assertThat(chain.taken).as("paused").isEmpty();
    assertThat(pacer.drained()).isTrue();
    long rated = System.nanoTime();
    pacer.rate(1000);
    List<Taken> after = chain.take(100);
    // 100 arrivals at 1,000/s: due within 0.1 s of the new rate, none of the old one's
    assertThat(after).allSatisfy(t -> assertThat(t.due()).isBetween(rated, rated + 110_000_000L));
    pacer.finish();
    assertThat(chain.left.await(5, TimeUnit.SECONDS)).as("finished: the lanes left").isTrue();
    assertThat(lanes.refused()).isZero();
  }

  private ArrivalLanes lanes(List<Segment> segments, int count, int inFlight) {
    return new ArrivalLanes(
        "t", new ArrivalSchedule(segments), count, inFlight, ArrivalLanes.WhenFull.REFUSE, false);
  }

  /** Starts {@code count} lanes, each on an event loop of its own; returns the loops. */
  private List<DefaultEventLoop> start(ArrivalLanes lanes, Chain chain, int count) {
    List<DefaultEventLoop> started = new ArrayList<>();
    chain.left = new CountDownLatch(count);
    Action begin = new ArrivalLane.Start(lanes, chain);
    for (int i = 0; i < count; i++) {
      DefaultEventLoop loop = new DefaultEventLoop();
      loops.add(loop);
      started.add(loop);
      Session session = Session$.MODULE$.apply("t", i + 1, loop);
      loop.execute(() -> begin.execute(session));
    }
    return started;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** An arrival the chain took: its session, its mark, when it came; answered by the test. */
  private record Taken(Session session, Object mark, long at) {
    long due() {
      return mark instanceof Long due ? due : ((DueTime.Refused) mark).due();
    }

    void answer() {
      new ArrivalLane.Leave(null).execute(session);
    }
  }

  /** Where the lanes hand their arrivals: answers each at once, or holds it for the test. */
  private static final class Chain extends NamedAction {
    final BlockingQueue<Taken> taken = new LinkedBlockingQueue<>();
    final boolean answer;
    CountDownLatch left;

    Chain(boolean answer) {
      super("chain");
      this.answer = answer;
    }

    @Override
    public void execute(Session session) {
      if (session.contains(FusilladeArrivals.DONE_ATTRIBUTE)) {
        left.countDown();
        return;
      }
      Taken t =
          new Taken(session, session.attributes().get(DueTime.ATTRIBUTE).get(), System.nanoTime());
      taken.add(t);
      if (answer) {
        t.answer();
      }
    }

    List<Taken> take(int count) throws InterruptedException {
      List<Taken> out = new ArrayList<>();
      while (out.size() < count) {
        Taken t = taken.poll(5, TimeUnit.SECONDS);
        assertThat(t).as("arrival %d of %d", out.size() + 1, count).isNotNull();
        out.add(t);
      }
      return out;
    }
  }
}
