package io.fusillade.gatling;

import io.fusillade.plan.RunPlan;
import io.fusillade.plan.RunPlanFile;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The entry point of the JVM that {@link GatlingLauncher} forks: Gatling's own launcher ({@code
 * io.gatling.app.Gatling}) without its check for a newer Gatling release. That check is an HTTPS
 * request to Maven Central at every start (Gatling 3.15.1 keeps its answer in the user's
 * preferences but cannot read it back), 0.3 s before the first request on a connected machine and a
 * connection timeout on an air-gapped one, for a warning about a version that Fusillade, not its
 * user, chooses.
 *
 * <p>The check is Gatling's lazily computed {@code GatlingVersion.LatestRelease}; this main settles
 * it as "no newer release known" before Gatling starts, so neither the request nor what follows a
 * failed one runs: the TLS set-up, and the preferences file written through the first XSLT engine
 * on the class path (Saxon, a signed jar whose signatures are verified as it loads). Together about
 * 0.6 s of a two-core machine's start. Should a Gatling release rename those fields, the check
 * still never leaves the machine: requests to its host go to a loopback port that refuses them at
 * once, every other connection is routed as before.
 *
 * <p>It also begins each {@link EarlyStart} found on the class path before Gatling loads: the
 * embedded servers a run needs start meanwhile. With {@value #WATCH_PARENT} as its first argument
 * it ends with the process that forked it, from its first instant ({@link ParentWatch}).
 */
public final class GatlingMain {
  static final String RELEASE_CHECK_HOST = "repo1.maven.org";

  private GatlingMain() {}

  /**
   * The option that names the run plan file ({@link RunPlanFile}) the command line wrote: read,
   * installed as this JVM's plan and deleted before anything else, and not passed on to Gatling.
   */
  public static final String PLAN_OPTION = "--plan";

  /**
   * The first argument that makes this JVM watch the process that forked it through its standard
   * input ({@link ParentWatch}); {@link GatlingLauncher} passes it, Gatling never sees it.
   */
  static final String WATCH_PARENT = "--fusillade-watch-parent";

  public static void main(String[] args) throws Throwable {
    if (args.length > 0 && args[0].equals(WATCH_PARENT)) {
      // first thing: from here on, whatever this JVM does, it ends with its parent
      ParentWatch.start();
      args = java.util.Arrays.copyOfRange(args, 1, args.length);
    }
    args = installPlan(args);
    ProxySelector.setDefault(new NoReleaseCheck(ProxySelector.getDefault()));
    settleLatestRelease();
    beginEarlyStarts(args);
    // by name: gatling-app is on the fork's class path, not a compile dependency of this module
    try {
      Class.forName("io.gatling.app.Gatling")
          .getMethod("main", String[].class)
          .invoke(null, (Object) args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      Throwable crash = e.getCause();
      String refusal = refusal(crash);
      if (refusal != null && io.fusillade.record.RunRecorder.lastOpenedDirectory().isEmpty()) {
        // The simulation refused its settings before any run opened (a table it cannot create, a
        // server it cannot start): Fusillade's one line, not the stack of Gatling's reflection.
        System.err.println("Fusillade: the run did not start: " + refusal);
        System.err.flush();
        System.exit(FusilladeRun.RUN_FAILED_EXIT);
      }
      String io = ioFailure(crash);
      if (io != null) {
        // Gatling's own files (simulation.log, its HTML report) on a full disk: the run's record
        // and Fusillade's summary say the rest.
        System.err.println("Fusillade: Gatling could not write its files: " + io);
        System.err.flush();
        System.exit(FusilladeRun.RUN_FAILED_EXIT);
      }
      throw crash;
    }
  }

  /**
   * Installs the plan that {@value #PLAN_OPTION} names, if any, and returns the other arguments.
   * The plan file is deleted once read: it may hold passwords.
   */
  static String[] installPlan(String[] args) {
    List<String> rest = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals(PLAN_OPTION) && i + 1 < args.length) {
        RunPlan.install(RunPlanFile.take(Path.of(args[++i])));
      } else {
        rest.add(args[i]);
      }
    }
    return rest.toArray(String[]::new);
  }

  /**
   * The message of the {@link java.io.IOException} that caused {@code crash} (a full disk under
   * Gatling's results), in one line, or null when none did.
   */
  static String ioFailure(Throwable crash) {
    for (Throwable t = crash; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.io.IOException || t instanceof java.io.UncheckedIOException) {
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).strip();
      }
    }
    return null;
  }

  /**
   * The message of the {@link io.fusillade.FusilladeException} that caused {@code crash}, in one
   * line, or null when none did (a bug: its stack trace is worth printing).
   */
  static String refusal(Throwable crash) {
    for (Throwable t = crash; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof io.fusillade.FusilladeException && t.getMessage() != null) {
        String message = t.getMessage().strip();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
      }
    }
    return null;
  }

  /** Begins every {@link EarlyStart} on the class path for the simulation that {@code -s} names. */
  static void beginEarlyStarts(String[] args) {
    String simulation = null;
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("-s") || args[i].equals("--simulation")) {
        simulation = args[i + 1];
      }
    }
    if (simulation != null) {
      try {
        for (EarlyStart early : ServiceLoader.load(EarlyStart.class)) {
          early.begin(simulation);
        }
      } catch (java.util.ServiceConfigurationError | LinkageError | RuntimeException e) {
        // a head start only: the simulation starts what it needs itself
      }
    }
  }

  /**
   * Sets Gatling's lazy {@code LatestRelease} to {@code None}, marked computed, so it is never
   * fetched.
   *
   * @return whether it could (false when Gatling's fields are not what 3.15 has)
   */
  static boolean settleLatestRelease() {
    try {
      Class<?> version = Class.forName("io.gatling.commons.util.GatlingVersion$");
      Object none = Class.forName("scala.None$").getField("MODULE$").get(null);
      Field latest = version.getDeclaredField("LatestRelease");
      Field computed = version.getDeclaredField("bitmap$0");
      latest.setAccessible(true);
      computed.setAccessible(true);
      latest.set(null, none);
      computed.setBoolean(null, true);
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  /** Sends the release check nowhere, everything else where the JVM's selector would. */
  static final class NoReleaseCheck extends ProxySelector {
    private static final List<Proxy> NOWHERE =
        List.of(
            new Proxy(Proxy.Type.HTTP, new InetSocketAddress(InetAddress.getLoopbackAddress(), 9)));
    private final ProxySelector previous;

    NoReleaseCheck(ProxySelector previous) {
      this.previous = previous;
    }

    @Override
    public List<Proxy> select(URI uri) {
      if (RELEASE_CHECK_HOST.equalsIgnoreCase(uri.getHost())) {
        return NOWHERE;
      }
      return previous != null ? previous.select(uri) : List.of(Proxy.NO_PROXY);
    }

    @Override
    public void connectFailed(URI uri, SocketAddress address, IOException e) {
      if (previous != null && !RELEASE_CHECK_HOST.equalsIgnoreCase(uri.getHost())) {
        previous.connectFailed(uri, address, e);
      }
    }
  }
}
