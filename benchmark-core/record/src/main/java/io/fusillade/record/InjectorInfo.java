package io.fusillade.record;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The machine and process that generated the load, so that a reader can tell runs of different
 * injectors apart and tell whether a "running" record's process is still alive.
 */
public record InjectorInfo(String host, long pid, int cores, String java, String os) {

  /** Describes the current JVM. */
  public static InjectorInfo current() {
    return new InjectorInfo(
        hostName(),
        ProcessHandle.current().pid(),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.vendor") + " " + System.getProperty("java.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.arch"));
  }

  static String hostName() {
    String fromEnv = System.getenv("HOSTNAME");
    if (fromEnv != null && !fromEnv.isBlank()) {
      return fromEnv;
    }
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown";
    }
  }
}
