package io.fusillade.gatling;

import io.gatling.commons.stats.Status;
import io.gatling.core.session.Block;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import scala.Option;
import scala.collection.immutable.List;

/**
 * Hands responses to Gatling's stats engine in batches, one batch per event loop.
 *
 * <p>Gatling's stats engine passes every response to its data writers, actors that run on a small
 * thread pool: a response that finds a writer idle wakes a pool thread. At tens of thousands of
 * responses a second that is two thread wake-ups per request, which on a small machine costs more
 * CPU than the request itself. Responses reported on a virtual user's event loop are therefore
 * collected and passed on together: when {@value #MAX_BATCH} have gathered, {@value #MAX_DELAY_MS}
 * ms after the first, and whenever a virtual user exits (so that none is left behind when the last
 * user ends and Gatling stops its stats engine). The timestamps are the responses' own, so
 * Gatling's report is unchanged. Responses reported from other threads go straight through.
 */
public final class StatsBatcher {
  static final int MAX_BATCH = 512;
  static final long MAX_DELAY_MS = 20;
  private static final Map<StatsEngine, StatsBatcher> BY_ENGINE = new ConcurrentHashMap<>();
  private static final java.util.List<StatsBatcher> ALL =
      new java.util.concurrent.CopyOnWriteArrayList<>();
  private static final List<String> NO_GROUPS = scala.collection.immutable.List$.MODULE$.empty();

  private final StatsEngine engine;
  private final FastThreadLocal<Batch> batches =
      new FastThreadLocal<>() {
        @Override
        protected Batch initialValue() {
          return new Batch();
        }
      };

  private StatsBatcher(StatsEngine engine) {
    this.engine = engine;
  }

  /** The batcher of a run's stats engine. */
  public static StatsBatcher of(StatsEngine engine) {
    return BY_ENGINE.computeIfAbsent(
        engine,
        e -> {
          StatsBatcher batcher = new StatsBatcher(e);
          ALL.add(batcher);
          return batcher;
        });
  }

  /** Passes on what the calling event loop has gathered, for every run's stats engine. */
  static void flushHere() {
    for (StatsBatcher batcher : ALL) {
      if (batcher.batches.isSet()) {
        batcher.batches.get().flush();
      }
    }
  }

  /** Reports a response, now or with the calling event loop's next batch. */
  public void logResponse(
      Session session,
      String requestName,
      long startMs,
      long endMs,
      Status status,
      Option<String> message) {
    EventLoop loop = session.eventLoop();
    if (!loop.inEventLoop()) {
      engine.logResponse(
          session.scenario(),
          session.groups(),
          requestName,
          startMs,
          endMs,
          status,
          Option.empty(),
          message);
      return;
    }
    Batch batch = batches.get();
    batch.add(
        new Response(
            session.scenario(), groups(session), requestName, startMs, endMs, status, message));
    if (batch.size() >= MAX_BATCH) {
      batch.flush();
    } else if (batch.size() == 1) {
      loop.schedule(batch::flush, MAX_DELAY_MS, TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The session's groups, as {@link Session#groups()} gives them, read while the session is still
   * in the cache: {@code groups()} searches the block stack with a partial function, which costs
   * more than the rest of the request's accounting; most users are in no group.
   */
  private static List<String> groups(Session session) {
    for (scala.collection.Iterator<Block> blocks = session.blockStack().iterator();
        blocks.hasNext(); ) {
      if (blocks.next() instanceof GroupBlock) {
        return session.groups();
      }
    }
    return NO_GROUPS;
  }

  private record Response(
      String scenario,
      List<String> groups,
      String requestName,
      long startMs,
      long endMs,
      Status status,
      Option<String> message) {}

  /** One event loop's gathered responses; only that loop's thread touches it. */
  private final class Batch {
    private ArrayList<Response> responses = new ArrayList<>(MAX_BATCH);

    void add(Response response) {
      responses.add(response);
    }

    int size() {
      return responses.size();
    }

    void flush() {
      if (responses.isEmpty()) {
        return;
      }
      ArrayList<Response> out = responses;
      responses = new ArrayList<>(MAX_BATCH);
      for (Response r : out) {
        engine.logResponse(
            r.scenario(),
            r.groups(),
            r.requestName(),
            r.startMs(),
            r.endMs(),
            r.status(),
            Option.empty(),
            r.message());
      }
    }
  }
}
