package io.fusillade.gatling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.Proxy;
import java.net.ProxySelector;
import java.net.SocketAddress;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The forked JVM never makes Gatling's release check, and were it made, would send it nowhere and
 * every other connection as before.
 */
class GatlingMainTest {
  private static final Proxy CORPORATE =
      new Proxy(
          Proxy.Type.HTTP, java.net.InetSocketAddress.createUnresolved("proxy.example", 3128));

  private final ProxySelector selector =
      new GatlingMain.NoReleaseCheck(
          new ProxySelector() {
            @Override
            public List<Proxy> select(URI uri) {
              return List.of(CORPORATE);
            }

            @Override
            public void connectFailed(URI uri, SocketAddress sa, IOException e) {}
          });

  @Test
  void theReleaseCheckIsRefusedAtOnceWithoutLeavingThisMachine() throws Exception {
    URI check =
        URI.create("https://repo1.maven.org/maven2/io/gatling/gatling-core/maven-metadata.xml");
    List<Proxy> proxies = selector.select(check);
    assertThat(proxies).hasSize(1);
    assertThat(
            ((java.net.InetSocketAddress) proxies.get(0).address())
                .getAddress()
                .isLoopbackAddress())
        .isTrue();

    HttpURLConnection connection = (HttpURLConnection) check.toURL().openConnection(proxies.get(0));
    connection.setConnectTimeout(2_000);
    assertThatThrownBy(connection::getResponseCode).isInstanceOf(ConnectException.class);
  }

  @Test
  void gatlingsLatestReleaseIsSettledAsUnknownWithoutAsking() {
    // false would mean a Gatling upgrade renamed the lazy value: its check would be made again
    assertThat(GatlingMain.settleLatestRelease()).isTrue();
    assertThat(io.gatling.commons.util.GatlingVersion$.MODULE$.LatestRelease().isEmpty()).isTrue();
  }

  @Test
  void everyOtherConnectionIsRoutedAsBefore() {
    assertThat(selector.select(URI.create("https://repo.maven.apache.org/maven2/")))
        .containsExactly(CORPORATE);
    assertThat(selector.select(URI.create("socket://127.0.0.1:5432"))).containsExactly(CORPORATE);
    assertThat(new GatlingMain.NoReleaseCheck(null).select(URI.create("http://127.0.0.1:9200/")))
        .containsExactly(Proxy.NO_PROXY);
  }

  /** A simulation that refused its settings is one line; a bug keeps its stack trace. */
  @org.junit.jupiter.api.Test
  void aFusilladeRefusalAnywhereInTheCrashIsItsOneLine() {
    Throwable crash =
        new java.lang.reflect.InvocationTargetException(
            new IllegalStateException(
                "setting up",
                new io.fusillade.FusilladeException(
                    "cannot create table full: ERROR: syntax error\n  Position: 14")));
    org.assertj.core.api.Assertions.assertThat(GatlingMain.refusal(crash))
        .isEqualTo("cannot create table full: ERROR: syntax error");
    org.assertj.core.api.Assertions.assertThat(GatlingMain.refusal(new NullPointerException()))
        .isNull();
    org.assertj.core.api.Assertions.assertThat(
            GatlingMain.ioFailure(
                new RuntimeException(new java.io.IOException("No space left on device"))))
        .isEqualTo("No space left on device");
    org.assertj.core.api.Assertions.assertThat(GatlingMain.ioFailure(new NullPointerException()))
        .isNull();
  }
}
