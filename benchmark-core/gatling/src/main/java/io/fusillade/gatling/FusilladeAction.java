package io.fusillade.gatling;

import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Base of Fusillade's Gatling actions: the one place where a request is resolved, started, reported
 * and the virtual user handed on. {@link #execute} resolves the request's name, then what it sends
 * ({@link #resolve}); a request that cannot be built (a session attribute missing, say) is reported
 * as crashed and the user goes on marked failed. Otherwise it starts the request and gives it to
 * {@link #send}, and whoever learns the outcome calls {@link Exchange#end} exactly once: the
 * response goes to Gatling's stats engine and Fusillade's recorder with the same start and end, and
 * the user goes on to the next action, marked failed when the request was KO.
 *
 * <p>Its name, and the logger Gatling's Scala {@code Action} trait expects, come from {@link
 * NamedAction}.
 *
 * @param <T> what a request sends besides its name, resolved per session (a key, a body...)
 */
public abstract class FusilladeAction<T> extends NamedAction {
  private final Expression<String> requestName;
  private final SessionlessComponents components;
  private final Action next;
  // One reporter per request name: a name may come from the session (keep such names few).
  private final Map<String, ResponseReporter> reporters = new ConcurrentHashMap<>();

  /**
   * @param requestName the request's name, resolved per session; its text is also the action's name
   *     and the name a request is reported under when its name cannot be resolved
   * @param components the protocol's components, which hold the recorder reported to
   * @param next the action the virtual user goes on to
   */
  protected FusilladeAction(
      Expression<String> requestName, SessionlessComponents components, Action next) {
    super(requestName.toString());
    this.requestName = requestName;
    this.components = components;
    this.next = next;
  }

  /**
   * What {@code session}'s request named {@code name} sends.
   *
   * @throws RuntimeException when it cannot be built (a missing session attribute): the request is
   *     then reported under {@code name} as "request not built: " and the exception's message
   */
  protected abstract T resolve(Session session, String name);

  /**
   * The name {@code request} is reported under: {@code name}, unless the request decides its own
   * (as a SQL call computed from the session does).
   */
  protected String reportedName(T request, String name) {
    return name;
  }

  /** Sends a started request; {@link Exchange#end} must follow exactly once, on any thread. */
  protected abstract void send(Exchange exchange, T request);

  @Override
  public final void execute(Session arrived) {
    // Entered now: resolving the request is part of its latency.
    long entered = System.nanoTime();
    Session session = arrived;
    boolean refused = false;
    if (DueTime.active) {
      // An arrival a pacer sent: its latency counts from when it was due, waits included.
      scala.Option<Object> due = session.attributes().get(DueTime.ATTRIBUTE);
      if (due.isDefined()) {
        if (due.get() instanceof Long at) {
          entered = Math.min(entered, at);
          session = session.remove(DueTime.ATTRIBUTE);
        } else {
          // Its lane was full: none of its requests is sent (the mark stays for the next ones).
          entered = Math.min(entered, ((DueTime.Refused) due.get()).due());
          refused = true;
        }
      }
    }
    FusilladeRun.noteInjecting(); // a volatile read: the run can now be stopped on a signal
    String name;
    try {
      name = requestName.resolve(session);
    } catch (RuntimeException e) {
      notBuilt(session, requestName.toString(), entered, e);
      return;
    }
    T request;
    try {
      request = resolve(session, name);
    } catch (RuntimeException e) {
      notBuilt(session, name, entered, e);
      return;
    }
    ResponseReporter reporter = reporter(reportedName(request, name));
    Exchange exchange = new Exchange(session, reporter, reporter.start(entered));
    if (refused) {
      exchange.end(System.nanoTime(), Status.KO, DueTime.LANE_FULL);
    } else {
      send(exchange, request);
    }
  }

  /** Reports a request that could not be built, and hands the user on, marked failed. */
  private void notBuilt(Session session, String name, long enteredNanos, RuntimeException e) {
    ResponseReporter reporter = reporter(name);
    reporter.crash(session, reporter.start(enteredNanos), String.valueOf(e.getMessage()));
    next.$bang(session.markAsFailed());
  }

  /** The reporter of the requests named {@code name}, made when the name is first seen. */
  private ResponseReporter reporter(String name) {
    ResponseReporter reporter = reporters.get(name);
    return reporter != null
        ? reporter
        : reporters.computeIfAbsent(
            name, n -> new ResponseReporter(components.core(), components.recorder().request(n)));
  }

  /** One request in flight for one virtual user: ended exactly once, from any thread. */
  public final class Exchange {
    private final Session session;
    private final ResponseReporter reporter;
    private final ResponseReporter.Start start;

    private Exchange(Session session, ResponseReporter reporter, ResponseReporter.Start start) {
      this.session = session;
      this.reporter = reporter;
      this.start = start;
    }

    /** The virtual user's session, as the request found it. */
    public Session session() {
      return session;
    }

    /** When the request was entered, on the {@link System#nanoTime()} clock. */
    public long startNanos() {
      return start.nanos();
    }

    /** Counts {@code count} bytes sent or received for this request's name. */
    public void bytes(long count) {
      reporter.bytes(count);
    }

    /** Reports the outcome and hands the user on (marked failed unless OK). */
    public void end(long endNanos, Status status, String reason) {
      end(endNanos, status, reason, session);
    }

    /**
     * Reports the outcome and hands the user on: as {@code after} when OK (a session with values
     * the response saved), marked failed otherwise.
     */
    public void end(long endNanos, Status status, String reason, Session after) {
      reporter.report(session, start, endNanos, status, reason);
      // `!` hops back onto the user's event loop when called from another thread.
      next.$bang(status == Status.OK ? after : session.markAsFailed());
    }
  }
}
