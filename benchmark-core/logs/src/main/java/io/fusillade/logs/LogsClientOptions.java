package io.fusillade.logs;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * Where a log store is and how to authenticate. {@link #toString()} never shows a secret.
 *
 * @param urls the nodes' base URLs ({@code http://host:9200}); requests go round-robin
 * @param user the basic-auth user, or null
 * @param password the basic-auth password, or null
 * @param apiKey an API key (sent as {@code Authorization: ApiKey ...}), or null
 * @param requestTimeout how long one request may take before it fails
 * @param store what kind of store it is: where bulks go and how it is searched (default {@link
 *     LogStore#OPENSEARCH}, any Elasticsearch-compatible API)
 */
public record LogsClientOptions(
    List<String> urls,
    String user,
    String password,
    String apiKey,
    Duration requestTimeout,
    LogStore store) {

  /** Copies the list, checks the URLs and removes trailing slashes. */
  public LogsClientOptions {
    if (urls == null || urls.isEmpty()) {
      throw new IllegalArgumentException("a log store needs at least one base URL");
    }
    urls =
        urls.stream()
            .map(String::strip)
            .map(u -> u.endsWith("/") ? u.substring(0, u.length() - 1) : u)
            .toList();
    for (String url : urls) {
      URI uri;
      try {
        uri = URI.create(url);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("not a URL: " + mask(url));
      }
      if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
        throw new IllegalArgumentException("not an http(s) URL: " + mask(url));
      }
      if (uri.getUserInfo() != null) {
        throw new IllegalArgumentException(
            "put credentials in user/password, not in the URL: " + mask(url));
      }
    }
    if (apiKey != null && user != null) {
      throw new IllegalArgumentException("give either user/password or an API key, not both");
    }
    if (requestTimeout == null) {
      requestTimeout = Duration.ofSeconds(60);
    }
    if (store == null) {
      store = LogStore.OPENSEARCH;
    }
  }

  /** An Elasticsearch-compatible store. */
  public LogsClientOptions(
      List<String> urls, String user, String password, String apiKey, Duration requestTimeout) {
    this(urls, user, password, apiKey, requestTimeout, LogStore.OPENSEARCH);
  }

  /** One node, no authentication, a 60 s request timeout. */
  public static LogsClientOptions of(String... urls) {
    return new LogsClientOptions(List.of(urls), null, null, null, Duration.ofSeconds(60));
  }

  public LogsClientOptions withBasicAuth(String user, String password) {
    return new LogsClientOptions(urls, user, password, apiKey, requestTimeout, store);
  }

  public LogsClientOptions withApiKey(String key) {
    return new LogsClientOptions(urls, user, password, key, requestTimeout, store);
  }

  public LogsClientOptions withRequestTimeout(Duration timeout) {
    return new LogsClientOptions(urls, user, password, apiKey, timeout, store);
  }

  /** Another kind of store ({@link LogStore#SEQ_DB}). */
  public LogsClientOptions withStore(LogStore value) {
    return new LogsClientOptions(urls, user, password, apiKey, requestTimeout, value);
  }

  /** A URL with any {@code user:password@} part replaced by {@code ***@}. */
  public static String mask(String url) {
    return url == null ? null : url.replaceAll("//[^/@]*@", "//***@");
  }

  @Override
  public String toString() {
    return "LogsClientOptions[store="
        + store.label()
        + ", urls="
        + urls.stream().map(LogsClientOptions::mask).toList()
        + ", auth="
        + (apiKey != null ? "api key ***" : user != null ? "basic " + user + ":***" : "none")
        + ", requestTimeout="
        + requestTimeout
        + "]";
  }
}
