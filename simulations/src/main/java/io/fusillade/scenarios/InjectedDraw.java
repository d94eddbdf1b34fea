package io.fusillade.scenarios;

import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import io.fusillade.workload.InjectedFault;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Which arrivals a workload's {@code injected} kinds take: each kind its share, drawn from a seeded
 * stream of its own, so that the workload's own requests keep their order and values with or
 * without injection. A kind with a window ({@code from}, {@code for}) is sent only within it,
 * counted from the first draw (the load's first arrival); its draws outside go to the workload.
 *
 * <p>Thread-safe: arrivals draw in turn.
 */
public final class InjectedDraw {
  private final List<InjectedFault> faults;
  private final double[] cumulative;
  private final Rng rng;
  private final LongSupplier nanoTime;
  private long origin;
  private boolean started;

  /**
   * @param faults the kinds and their shares
   * @param seed the run's seed (or a user's, derived from it)
   */
  public InjectedDraw(List<InjectedFault> faults, long seed) {
    this(faults, seed, System::nanoTime);
  }

  /**
   * @param faults the kinds and their shares
   * @param seed the run's seed (or a user's, derived from it)
   * @param nanoTime the clock of the kinds' windows
   */
  public InjectedDraw(List<InjectedFault> faults, long seed, LongSupplier nanoTime) {
    // the kinds at a rate of their own take no arrival ({@link InjectedChains#populations})
    this.faults = faults.stream().filter(f -> !f.hasRate()).toList();
    this.cumulative = new double[this.faults.size()];
    double sum = 0;
    for (int i = 0; i < this.faults.size(); i++) {
      sum += this.faults.get(i).share();
      cumulative[i] = sum;
    }
    this.rng = new Rng(Seeds.stream(seed, "fusillade", "injected"));
    this.nanoTime = nanoTime;
  }

  /** Whether no kind is injected. */
  public boolean isEmpty() {
    return faults.isEmpty();
  }

  /** The next arrival's injected kind, or null when it is one of the workload's requests. */
  public synchronized InjectedFault next() {
    if (faults.isEmpty()) {
      return null;
    }
    long now = nanoTime.getAsLong();
    if (!started) {
      started = true;
      origin = now;
    }
    // One draw per arrival, in or out of a kind's window, so that the draws stay in step.
    double u = rng.nextDouble();
    for (int i = 0; i < cumulative.length; i++) {
      if (u < cumulative[i]) {
        InjectedFault fault = faults.get(i);
        return fault.activeAt(now - origin) ? fault : null;
      }
    }
    return null;
  }
}
