package io.fusillade.fault;

/**
 * The nodes of one kind of local server that scheduled {@link Fault}s can act on: the embedded
 * Kafka's brokers, the embedded PostgreSQL. The server's owner (the code that started it) registers
 * it under its kind's name; nodes count from 1. Each method returns once the action is done (a
 * restart: once the node serves again) and throws, with the server's reason, when it cannot be
 * done.
 */
public interface FaultTarget {

  /** How many nodes there are: faults may name 1 to this. */
  int nodes();

  /** Freezes every process of the node (SIGSTOP): its connections stay open, unanswered. */
  void pause(int node);

  /** Lets a paused node run again (SIGCONT). */
  void resume(int node);

  /** Stops the node as a crash would: no clean shutdown. */
  void kill(int node);

  /** Starts a killed node again, with its data, and waits until it serves. */
  void restart(int node);

  /**
   * Delays every answer of the node by {@code delay} from now on ({@link java.time.Duration#ZERO}:
   * no longer), as a slow network would.
   *
   * @throws IllegalStateException when this server's answers cannot be delayed
   */
  default void delay(int node, java.time.Duration delay) {
    throw new IllegalStateException(
        "this server's answers cannot be delayed: the embedded servers' can, when the run"
            + " declares the delay from its start");
  }

  /**
   * Starves the node of CPU from now until the returned handle is closed ({@code
   * io.fusillade.starve.CpuStarvation}).
   *
   * @return what gives the node its CPU back, once closed; its {@code toString} says how it was
   *     done
   * @throws IllegalStateException when this server cannot be starved (or the machine allows no
   *     mechanism)
   */
  default AutoCloseable starve(int node, io.fusillade.starve.CpuStarve starve) {
    throw new IllegalStateException(
        "this server cannot be starved of CPU: the embedded PostgreSQL can");
  }
}
