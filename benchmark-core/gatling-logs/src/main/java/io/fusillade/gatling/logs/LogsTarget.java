package io.fusillade.gatling.logs;

import io.fusillade.logs.LogStore;
import io.fusillade.logs.LogsClientOptions;
import java.time.Duration;
import java.util.List;

/**
 * Where the log store is and how to log in: part of {@link LogsSettings}. Checked only when the
 * protocol is built ({@link #clientOptions()}), so that the builder's methods can come in any
 * order. {@link #toString()} never shows a secret.
 */
record LogsTarget(
    List<String> urls,
    String user,
    String password,
    String apiKey,
    Duration requestTimeout,
    LogStore store) {

  static final LogsTarget DEFAULT =
      new LogsTarget(List.of(), null, null, null, Duration.ofSeconds(60), LogStore.OPENSEARCH);

  LogsTarget {
    urls = List.copyOf(urls);
  }

  LogsTarget withUrls(List<String> value) {
    return new LogsTarget(value, user, password, apiKey, requestTimeout, store);
  }

  /** User and password, replacing an API key. */
  LogsTarget withBasicAuth(String name, String secret) {
    return new LogsTarget(urls, name, secret, null, requestTimeout, store);
  }

  /** An API key, replacing user and password. */
  LogsTarget withApiKey(String key) {
    return new LogsTarget(urls, null, null, key, requestTimeout, store);
  }

  LogsTarget withRequestTimeout(Duration value) {
    return new LogsTarget(urls, user, password, apiKey, value, store);
  }

  LogsTarget withStore(LogStore value) {
    return new LogsTarget(urls, user, password, apiKey, requestTimeout, value);
  }

  /** The client's options; throws IllegalArgumentException on a bad URL or credentials. */
  LogsClientOptions clientOptions() {
    return new LogsClientOptions(urls, user, password, apiKey, requestTimeout, store);
  }

  /** As the client's options show themselves, or what is wrong with them. */
  @Override
  public String toString() {
    try {
      return clientOptions().toString();
    } catch (IllegalArgumentException e) {
      return "LogsTarget[" + e.getMessage() + "]";
    }
  }
}
