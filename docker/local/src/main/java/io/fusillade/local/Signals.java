package io.fusillade.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends Unix signals with {@code kill(1)}: the JDK sends only SIGTERM and SIGKILL, and a fault
 * freezes a server with SIGSTOP and lets it go with SIGCONT.
 */
public final class Signals {
  private Signals() {}

  /**
   * Sends {@code SIG<name>} to the processes {@code pids}, all at once.
   *
   * @param name the signal's name without {@code SIG}: {@code STOP}, {@code CONT}
   * @param what the server, for the error: {@code broker 2}
   * @throws IllegalStateException when {@code kill} fails, with what it said
   */
  public static void send(String name, String what, List<Long> pids) {
    List<String> command = new ArrayList<>(List.of("kill", "-" + name));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    try {
      Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
      String said = new String(kill.getInputStream().readAllBytes()).strip();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("could not send SIG" + name + " to " + what + ": " + said);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not send SIG" + name + " to " + what, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + what, e);
    }
  }

  /** As {@link #send}, to one process. */
  public static void send(String name, String what, long pid) {
    send(name, what, List.of(pid));
  }
}
