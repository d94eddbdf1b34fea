package io.fusillade.gatling;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The one run of this JVM, and what is declared for it before it opens. Gatling runs one simulation
 * per JVM and gives a run no object of its own, so the simulation's constructor, the protocols and
 * the actions find it here: this is the only mutable static state of the run, behind one lock.
 *
 * <p>A run's life: {@link RunDeclarations} fill while the simulation is built; the first protocol
 * to build its components opens the {@link GatlingRun} with them ({@link #open}); it ends when
 * Gatling terminates its actor system or the JVM exits ({@link #end}), and the slot is empty again.
 */
final class RunSlot {
  private static RunDeclarations declarations = new RunDeclarations(); // guarded by RunSlot.class
  private static volatile GatlingRun current; // written under RunSlot.class

  private RunSlot() {}

  /** Changes the declarations of the next run (or of the open one, when the change applies). */
  static synchronized void declare(Consumer<RunDeclarations> change) {
    change.accept(declarations);
  }

  /** Reads the declarations. */
  static synchronized <T> T declared(Function<RunDeclarations, T> read) {
    return read.apply(declarations);
  }

  /** The open run, or null. A volatile read: the actions' hot path asks it. */
  static GatlingRun current() {
    return current;
  }

  /**
   * The open run, opened first with the declarations when none is.
   *
   * @param opener opens a run from the declarations
   */
  static synchronized GatlingRun open(Function<RunDeclarations, GatlingRun> opener) {
    if (current == null) {
      current = opener.apply(declarations);
    }
    return current;
  }

  /**
   * Empties the slot if {@code run} is in it: the declarations start afresh for a next run.
   *
   * @return whether {@code run} was the open run (false: it ended already)
   */
  static synchronized boolean end(GatlingRun run) {
    if (current != run || run == null) {
      return false;
    }
    current = null;
    declarations = new RunDeclarations();
    return true;
  }
}
