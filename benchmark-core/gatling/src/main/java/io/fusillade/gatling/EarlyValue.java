package io.fusillade.gatling;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * A resource started on a thread of its own ({@link EarlyStart}), taken once by the code that would
 * otherwise have started it. A failed start fails {@link #take()} with the start's own exception,
 * so the run reports it exactly as if it had started the resource itself. A resource that nobody
 * takes (the simulation failed before it got there) is closed when the JVM exits.
 *
 * @param <T> the resource
 */
public final class EarlyValue<T extends AutoCloseable> {
  private final CompletableFuture<T> value = new CompletableFuture<>();
  private boolean taken;

  private EarlyValue() {}

  /**
   * Starts {@code start} on a daemon thread named {@code name}.
   *
   * @param start returns the resource, or {@code null} when the run turns out to need none
   */
  public static <T extends AutoCloseable> EarlyValue<T> begin(String name, Callable<T> start) {
    EarlyValue<T> early = new EarlyValue<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                early.value.complete(start.call());
              } catch (Throwable e) {
                early.value.completeExceptionally(e);
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    Runtime.getRuntime().addShutdownHook(new Thread(early::closeUntaken, name + "-close"));
    return early;
  }

  /**
   * Waits for the start and returns the resource (null when none was needed), now the caller's to
   * close.
   *
   * @throws IllegalStateException when taken before
   * @throws RuntimeException the start's own, or Error; a checked one wrapped in an {@code
   *     IllegalStateException}
   */
  public T take() {
    synchronized (this) {
      if (taken) {
        throw new IllegalStateException("taken already");
      }
      taken = true;
    }
    try {
      return value.join();
    } catch (java.util.concurrent.CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(cause);
    }
  }

  private void closeUntaken() {
    synchronized (this) {
      if (taken) {
        return;
      }
      taken = true;
    }
    try {
      // bounded: a start that hangs must not hold the JVM's exit for ever
      T resource = value.get(30, java.util.concurrent.TimeUnit.SECONDS);
      if (resource != null) {
        resource.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException e) {
      // nothing started
    } catch (Exception e) {
      // the JVM is exiting; the stale-server reaper gets what this could not close
    }
  }
}
