package io.fusillade.gatling;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;

/**
 * The entry point of the JVM that {@link GatlingLauncher} forks: Gatling's own launcher ({@code
 * io.gatling.app.Gatling}) without its check for a newer Gatling release. That check is an HTTPS
 * request to Maven Central at every start (Gatling 3.15.1 keeps its answer in the user's
 * preferences but cannot read it back), 0.3 s before the first request on a connected machine and a
 * connection timeout on an air-gapped one, for a warning about a version that Fusillade, not its
 * user, chooses. Requests to that host go to a loopback port that refuses them at once; every other
 * connection is routed as before.
 */
public final class GatlingMain {
  static final String RELEASE_CHECK_HOST = "repo1.maven.org";

  private GatlingMain() {}

  public static void main(String[] args) throws Throwable {
    ProxySelector.setDefault(new NoReleaseCheck(ProxySelector.getDefault()));
    // by name: gatling-app is on the fork's class path, not a compile dependency of this module
    try {
      Class.forName("io.gatling.app.Gatling")
          .getMethod("main", String[].class)
          .invoke(null, (Object) args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause();
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
