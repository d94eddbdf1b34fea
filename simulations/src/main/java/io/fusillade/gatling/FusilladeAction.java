package io.fusillade.gatling;

import com.typesafe.scalalogging.Logger;
import io.fusillade.record.Status;
import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.LoggerFactory;

/**
 * Base of Fusillade's Gatling actions: the one place where a request is started, reported and the
 * virtual user handed on. An action's {@code execute} resolves what it sends, then calls {@link
 * #start} (or {@link #notBuilt} when it could not build the request), and whoever learns the
 * outcome calls {@link Exchange#end} exactly once: the response goes to Gatling's stats engine and
 * Fusillade's recorder with the same start and end, and the user goes on to the next action, marked
 * failed when the request was KO.
 *
 * <p>It also supplies the logger that Gatling's Scala {@code Action} trait expects (javac cannot
 * inherit a Scala trait's field initialiser) and the action's name.
 */
public abstract class FusilladeAction implements Action {
  private Logger logger = Logger.apply(LoggerFactory.getLogger(getClass()));
  private final String name;
  private final SessionlessComponents components;
  private final Action next;
  // One reporter per request name: a name may come from the session (keep such names few).
  private final Map<String, ResponseReporter> reporters = new ConcurrentHashMap<>();

  /**
   * @param name the action's name (Gatling's, not the request's)
   * @param components the protocol's components, which hold the recorder reported to
   * @param next the action the virtual user goes on to
   */
  protected FusilladeAction(String name, SessionlessComponents components, Action next) {
    this.name = name;
    this.components = components;
    this.next = next;
  }

  @Override
  public String name() {
    return name;
  }

  /** The reporter of the requests named {@code requestName}, made when the name is first seen. */
  protected final ResponseReporter reporter(String requestName) {
    ResponseReporter reporter = reporters.get(requestName);
    return reporter != null
        ? reporter
        : reporters.computeIfAbsent(
            requestName,
            n -> new ResponseReporter(components.core(), components.recorder().request(n)));
  }

  /**
   * The name of {@code session}'s request, or null when it cannot be resolved (a missing session
   * attribute): then the request is reported as not built, under the name's text, and the user
   * handed on; the caller just returns.
   */
  protected final String requestName(Session session, Expression<String> name, long enteredNanos) {
    try {
      return name.resolve(session);
    } catch (IllegalArgumentException e) {
      notBuilt(session, name.toString(), enteredNanos, e.getMessage());
      return null;
    }
  }

  /**
   * Starts request {@code requestName} of {@code session}, entered at {@code enteredNanos} (a
   * {@link System#nanoTime()} read on entry, so that resolving the request is part of its latency).
   */
  protected final Exchange start(Session session, String requestName, long enteredNanos) {
    ResponseReporter reporter = reporter(requestName);
    return new Exchange(session, reporter, reporter.start(enteredNanos));
  }

  /**
   * Reports a request that could not be built (a session attribute missing, say) as crashed under
   * {@code requestName}, and hands the user on, marked failed.
   */
  protected final void notBuilt(
      Session session, String requestName, long enteredNanos, String error) {
    ResponseReporter reporter = reporter(requestName);
    reporter.crash(session, reporter.start(enteredNanos), error);
    next.$bang(session.markAsFailed());
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

  @Override
  public Logger logger() {
    return logger;
  }

  @Override
  @SuppressWarnings("checkstyle:MethodName")
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(Logger logger) {
    this.logger = logger;
  }
}
