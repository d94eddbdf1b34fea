package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.FailureClass;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** The logs client's KO reasons name who failed (see {@link FailureClass}). */
class LogsResponsesTest {
  private static final String BASE = "http://localhost:9200";

  @Test
  void transportFailuresAreTheNetworks() {
    assertThat(LogsResponses.describe(new CompletionException(new ConnectException("x")), BASE))
        .isEqualTo("connection refused: localhost:9200");
    assertThat(LogsResponses.describe(new HttpConnectTimeoutException("x"), BASE))
        .isEqualTo("connect timeout: localhost:9200");
    assertThat(LogsResponses.describe(new IOException("Connection reset by peer"), BASE))
        .isEqualTo("connection reset: localhost:9200");
    assertThat(LogsResponses.describe(new HttpTimeoutException("x"), BASE))
        .isEqualTo("request timeout");
    assertThat(LogsResponses.describe(new IOException("closed"), BASE))
        .isEqualTo("network: IOException (http://localhost:9200)");
    for (Throwable t :
        new Throwable[] {
          new ConnectException("x"),
          new HttpConnectTimeoutException("x"),
          new HttpTimeoutException("x"),
          new IOException("x"),
          new IOException("Connection reset by peer")
        }) {
      assertThat(FailureClass.of(LogsResponses.describe(t, BASE))).isEqualTo(FailureClass.NETWORK);
    }
  }

  @Test
  void nodesAreNamedHostAndPortWithoutCredentials() {
    assertThat(LogsResponses.hostPort("http://127.0.0.1:9200")).isEqualTo("127.0.0.1:9200");
    assertThat(LogsResponses.hostPort("https://search.example")).isEqualTo("search.example:443");
    assertThat(LogsResponses.hostPort("http://node/prefix")).isEqualTo("node:80");
    assertThat(LogsResponses.hostPort("http://[::1]:9200")).isEqualTo("[::1]:9200");
  }

  @Test
  void httpErrorsAndBulkItemsAreTheServers() {
    String reason =
        LogsResponses.httpError(
            429, "{\"error\":{\"type\":\"es_rejected_execution_exception\"}}".getBytes());
    assertThat(reason).isEqualTo("HTTP 429 es_rejected_execution_exception");
    assertThat(FailureClass.of(reason)).isEqualTo(FailureClass.SERVER);
    assertThat(FailureClass.of(LogsResponses.httpError(504, "gateway timeout".getBytes())))
        .isEqualTo(FailureClass.SERVER);
  }
}
