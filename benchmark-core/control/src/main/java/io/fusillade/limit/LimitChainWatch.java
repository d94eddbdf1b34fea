package io.fusillade.limit;

import io.fusillade.record.FlushListener;
import io.fusillade.record.Latencies;
import io.fusillade.record.RunEvents;
import io.fusillade.record.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * A limit search chained with seed 000's two "minimum time" steps, on one live run record: an idle
 * step at a trickle first, then the search ({@link LimitWatch}, untouched: it is fed the run from
 * the end of the idle step), then a step at a share of the rate the search found ({@link
 * LimitChain}). The two measured steps report the readers' end-to-end latency (the {@code e2e
 * TOPIC} metric) and pass when the readers' lag did not grow, the system made no error and some
 * message was read end to end; they are events of the record ({@value #STEP_EVENT}, {@value
 * #STEP_END_EVENT}) and, at the end, the {@value #PARAMETER} parameter of {@code run.json}.
 *
 * <p>The step after the search runs at {@code latencyAt} times the limit found; when the system
 * sustained the search's highest rate ({@code above-max}) or the injector became the limit first
 * ({@code injector-limit}), at that share of the highest rate it sustained, said so; when the
 * search found no rate (below its lowest, unstable, stopped), it does not run, and the reason is
 * recorded.
 */
public final class LimitChainWatch implements FlushListener {
  /** The run.json parameter of the chain's settings and its two steps. */
  public static final String PARAMETER = "chain";

  /** The event at the start of a chained step: target {@code "<rate>/s"}, detail its name. */
  public static final String STEP_EVENT = "chain-step";

  /** The event at the end of a chained step: its verdict. */
  public static final String STEP_END_EVENT = "chain-step-end";

  /** The prefix of the end-to-end latency metrics ({@code e2e TOPIC}). */
  static final String E2E_PREFIX = "e2e ";

  private enum Phase {
    IDLE,
    SEARCH,
    LATENCY,
    DONE
  }

  private final LimitSettings settings;
  private final LimitChain chain;
  private final RunEvents events;
  private final LimitWatch.Pace pace;
  private final double injectorThresholdMs;
  private final LimitWatch search;
  private final Consumer<LimitResult> onDone;
  private Phase phase = Phase.IDLE;
  private boolean started;
  private boolean sentThisSecond;
  private int second;
  private double stepRate;
  private StepStats stats;
  private final Histogram e2e = Latencies.newHistogram();
  private double lastElapsed;
  private LimitResult result;
  private final Map<String, Object> idle = new LinkedHashMap<>();
  private final Map<String, Object> latency = new LinkedHashMap<>();

  /**
   * @param settings the search's settings, with its {@link LimitSettings#chain()}
   * @param events where the steps are recorded (the run recorder)
   * @param pace what sends the load; its rate must already be the chain's idle rate
   * @param injectorThresholdMs the injector lag p99 above which a step is the injector's
   * @param onDone receives the search's result once, when the whole chain is over (or the run
   *     closes first)
   */
  public LimitChainWatch(
      LimitSettings settings,
      RunEvents events,
      LimitWatch.Pace pace,
      double injectorThresholdMs,
      Consumer<LimitResult> onDone) {
    if (settings.chain() == null) {
      throw new IllegalArgumentException("a chained search needs its chain settings");
    }
    this.settings = settings;
    this.chain = settings.chain();
    this.events = events;
    this.pace = pace;
    this.injectorThresholdMs = injectorThresholdMs;
    this.onDone = onDone;
    this.stepRate = chain.idleRate();
    this.search =
        new LimitWatch(settings, events, new SearchPace(), injectorThresholdMs, this::searched);
  }

  /** The search's result, ending it (and the chain) as stopped when still under way. */
  public synchronized LimitResult endNow() {
    ended();
    return search.endNow();
  }

  /** The run ends: the step under way did not end, and says so. */
  private void ended() {
    if (phase == Phase.IDLE) {
      stop(idle, "the run ended before the idle step did");
    } else if (phase == Phase.LATENCY) {
      stop(latency, "the run ended before the step did");
    } else if (phase == Phase.SEARCH && latency.isEmpty()) {
      latency.put("passed", false);
      latency.put("why", List.of("not run: the run ended during the search"));
    }
  }

  /**
   * The {@value #PARAMETER} parameter: the settings, and both steps as measured so far ({@code
   * idleResult}, {@code latencyResult}).
   */
  public synchronized Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>(chain.toMap());
    m.put("idleResult", new LinkedHashMap<>(idle));
    m.put("latencyResult", new LinkedHashMap<>(latency));
    return m;
  }

  @Override
  public synchronized void request(
      String name, long sent, Histogram ok, Histogram ko, Map<String, Long> errors) {
    if (phase == Phase.SEARCH) {
      search.request(name, sent, ok, ko, errors);
      return;
    }
    sentThisSecond |= sent > 0;
    if (judged()) {
      stats.request(ok, ko, errors);
    }
  }

  @Override
  public synchronized void metric(String name, Histogram interval) {
    if (phase == Phase.SEARCH) {
      search.metric(name, interval);
      return;
    }
    if (judged()) {
      if (name.startsWith(E2E_PREFIX)) {
        e2e.add(interval);
      } else if (LimitWatch.INJECTOR_LAG.equals(name) || LimitWatch.PACE_LAG.equals(name)) {
        stats.injectorLag(name, interval);
      }
    }
  }

  @Override
  public synchronized void gauge(String name, double value) {
    if (phase == Phase.SEARCH) {
      search.gauge(name, value);
    } else if (judged()) {
      stats.gauge(name, value);
    }
  }

  @Override
  public synchronized void intervalEnd(long epochMs, double elapsedSeconds) {
    double length = elapsedSeconds - lastElapsed;
    lastElapsed = elapsedSeconds;
    if (phase == Phase.SEARCH) {
      search.intervalEnd(epochMs, elapsedSeconds); // may end the search: the latency step begins
      return;
    }
    if (phase == Phase.DONE) {
      return;
    }
    if (!started) {
      if (!sentThisSecond) {
        return;
      }
      started = true;
      begin("idle", chain.idleRate());
    }
    sentThisSecond = false;
    if (judged()) {
      stats.secondEnd(length);
    }
    int seconds = phase == Phase.IDLE ? chain.idleSeconds() : chain.latencySeconds();
    if (++second < seconds) {
      return;
    }
    if (phase == Phase.IDLE) {
      judge(idle, "idle");
      phase = Phase.SEARCH;
      pace.rate(settings.from());
    } else {
      judge(latency, "latency");
      phase = Phase.DONE;
      pace.finish();
      onDone.accept(result);
    }
  }

  @Override
  public synchronized void closed(RunStatus status) {
    ended();
    search.closed(status);
  }

  private boolean judged() {
    if (!started || phase == Phase.DONE) {
      return false;
    }
    int seconds = phase == Phase.IDLE ? chain.idleSeconds() : chain.latencySeconds();
    return second >= settings.warmUpSeconds(seconds);
  }

  private void begin(String name, double rate) {
    second = 0;
    stepRate = rate;
    stats = new StepStats(rate, injectorThresholdMs);
    e2e.reset();
    events.event(STEP_EVENT, StepResult.number(rate) + "/s", name);
  }

  /** The search is over: the step at a share of its rate, or the reason there is none. */
  private void searched(LimitResult done) {
    result = done;
    if (phase != Phase.SEARCH) { // the run ended during the idle step: the chain is over already
      latency.putIfAbsent("passed", false);
      latency.putIfAbsent("why", List.of("not run: the run ended before the search"));
      return;
    }
    Double base = base(done);
    if (base == null || base <= 0) {
      latency.put("passed", false);
      latency.put(
          "why",
          List.of(
              "not run: the search found no maximum ("
                  + done.verdict().jsonName()
                  + "), so there is no share of it to run at"));
      events.event(STEP_END_EVENT, "latency", "not run: no maximum");
      phase = Phase.DONE;
      pace.finish();
      onDone.accept(done);
      return;
    }
    latency.put(
        "of",
        done.limit() != null
            ? "the limit found"
            : done.verdict() == LimitResult.Verdict.ABOVE_MAX
                ? "the highest rate tried, sustained (the limit is above it)"
                : "the highest rate sustained before the injector became the limit (the"
                    + " system's is above it)");
    latency.put("base", base);
    phase = Phase.LATENCY;
    double rate = base * chain.latencyAt();
    pace.rate(rate);
    begin("latency", rate); // its seconds count from the next one: this one was the search's
  }

  /**
   * The rate the step after the search is a share of: the limit found; else the highest rate the
   * system sustained when the search ended above it (the system sustained its highest rate, or the
   * injector could not go further: in both, the system's limit is above, and said so); else none.
   */
  public static Double base(LimitResult done) {
    if (done.limit() != null) {
      return done.limit();
    }
    boolean atLeast =
        done.verdict() == LimitResult.Verdict.ABOVE_MAX
            || done.verdict() == LimitResult.Verdict.INJECTOR_LIMIT;
    return atLeast && done.sustained() > 0 ? done.sustained() : null;
  }

  private void judge(Map<String, Object> into, String name) {
    StepMeasure m = stats.measure();
    List<String> why = new ArrayList<>();
    String lag = m.lagVerdict();
    if (lag == null) {
      why.add("no reader lag measured (the topic needs consumers)");
    } else if (lag.startsWith("growing")) {
      why.add("read lag " + lag + " (rule: the read lag must not grow)");
    }
    if (m.errors() > 0) {
      why.add(m.errors() + " errors of the system (rule: no error)");
    }
    if (e2e.getTotalCount() == 0) {
      why.add("no message read end to end in the judged seconds");
    }
    String injector = m.injectorProblem();
    if (injector != null) {
      why.add("the injector cannot vouch for the step: " + injector);
    }
    into.put("target", stepRate);
    into.put("achieved", round(m.achieved()));
    into.put("judgedSeconds", round(m.seconds()));
    into.put("e2eP50Ms", e2e.getTotalCount() == 0 ? null : ms(e2e, 50));
    into.put("e2eP99Ms", e2e.getTotalCount() == 0 ? null : ms(e2e, 99));
    into.put("e2eCount", e2e.getTotalCount());
    into.put("writeP50Ms", round(m.percentileMs(50)));
    into.put("lag", lag);
    into.put("errors", m.errors());
    into.put("passed", why.isEmpty());
    into.put("why", why);
    events.event(
        STEP_END_EVENT,
        StepResult.number(stepRate) + "/s",
        name + ": " + (why.isEmpty() ? "passed" : String.join("; ", why)));
  }

  private void stop(Map<String, Object> into, String reason) {
    if (!into.containsKey("passed")) { // the step under way: judged by nobody, it failed
      into.put("passed", false);
      into.put("why", List.of(reason));
    }
    if (phase != Phase.DONE) {
      phase = Phase.DONE;
      if (result == null) {
        result = search.endNow();
      }
      pace.finish();
      onDone.accept(result);
    }
  }

  private static double ms(Histogram h, double percentile) {
    return round(h.getValueAtPercentile(percentile) / 1000.0);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /** The search's pace: its end starts the step after it instead of stopping the load. */
  private final class SearchPace implements LimitWatch.Pace {
    @Override
    public void rate(double perSecond) {
      pace.rate(perSecond);
    }

    @Override
    public void pause() {
      pace.pause();
    }

    @Override
    public boolean drained() {
      return pace.drained();
    }

    @Override
    public void finish() {
      // searched() already decided what comes next (it runs just before this)
    }
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "LimitChainWatch[%s, %s]", phase, chain);
  }
}
