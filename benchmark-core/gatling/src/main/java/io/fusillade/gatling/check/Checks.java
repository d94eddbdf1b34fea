package io.fusillade.gatling.check;

import io.gatling.core.session.Session;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A request's checks, in order: the first that fails is the request's KO reason. What every
 * protocol's action runs on its response.
 *
 * @param <R> the response checked
 */
public final class Checks<R> {
  private static final Checks<?> NONE = new Checks<>(List.of());

  private final List<Check<R, ?>> checks;

  private Checks(List<Check<R, ?>> checks) {
    this.checks = List.copyOf(checks);
  }

  /** No check. */
  @SuppressWarnings("unchecked")
  public static <R> Checks<R> none() {
    return (Checks<R>) NONE;
  }

  /** These checks and {@code more}, after them. */
  public Checks<R> and(List<? extends Check<R, ?>> more) {
    List<Check<R, ?>> all = new ArrayList<>(checks);
    all.addAll(more);
    return new Checks<>(all);
  }

  /** The checks. */
  public List<Check<R, ?>> list() {
    return checks;
  }

  public boolean isEmpty() {
    return checks.isEmpty();
  }

  /** Whether a check saves a value. */
  public boolean saves() {
    return checks.stream().anyMatch(c -> c.savedAs() != null);
  }

  /** What of the response the checks read, together ({@link Check#needs}). */
  public Set<String> needs() {
    Set<String> all = new LinkedHashSet<>();
    checks.forEach(c -> all.addAll(c.needs()));
    return Set.copyOf(all);
  }

  /**
   * Runs the checks on a response of one virtual user.
   *
   * @param saves where the passing checks' values go (applied by the caller when all passed)
   * @return null when every check passed, else the first failure's message
   */
  public String verify(R response, Session session, Saves saves) {
    for (Check<R, ?> check : checks) {
      String failure = check.verify(response, session, saves);
      if (failure != null) {
        return failure;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return checks.toString();
  }
}
