package io.fusillade.reports.trend;

import io.fusillade.FusilladeException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A chat's incoming webhook (Slack, Mattermost, or anything that takes their JSON): one POST of a
 * message. Its URL is a secret — the path's token lets anyone post, and it may carry a {@code
 * user:password@} — so nothing here ever shows more of it than its host and port: not in a warning,
 * not in an error, not in {@link #toString}.
 *
 * <p>A failure to post (refused, timed out, answered with a status other than 2xx) is a warning for
 * the caller to print, never an exception: the chat is how a verdict is announced, not the verdict.
 */
public final class ChatWebhook {
  private final URI uri;
  private final Duration timeout;

  private ChatWebhook(URI uri, Duration timeout) {
    this.uri = uri;
    this.timeout = timeout;
  }

  /**
   * Reads a webhook URL.
   *
   * @param url an {@code http://} or {@code https://} URL with a host
   * @param timeout how long to wait for the connection, and then for the answer
   * @return the webhook
   * @throws FusilladeException naming the option, never the URL, when it is not such a URL
   */
  public static ChatWebhook of(String url, Duration timeout) {
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      uri = null;
    }
    String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme();
    if (uri == null
        || uri.getHost() == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
      throw new FusilladeException(
          "--notify: not an http:// or https:// URL with a host (the URL is not shown: a"
              + " webhook's URL is its secret)");
    }
    return new ChatWebhook(uri, timeout);
  }

  /**
   * Where the messages go, as it may be shown: the host and port only.
   *
   * @return such as {@code hooks.slack.com} or {@code 127.0.0.1:8065}
   */
  public String host() {
    return uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }

  /**
   * Posts a message.
   *
   * @param json the body, such as {@link ChatMessage#body}
   * @return empty when the chat took it (2xx), else one warning line naming the host only
   */
  public Optional<String> post(String json) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(withoutUserInfo())
            .timeout(timeout)
            .header("Content-Type", "application/json; charset=utf-8")
            .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
    if (uri.getRawUserInfo() != null) {
      // user:password@host: HTTP basic authentication, as curl would send it.
      request.header(
          "Authorization",
          "Basic "
              + java.util.Base64.getEncoder()
                  .encodeToString(
                      java.net.URLDecoder.decode(uri.getRawUserInfo(), StandardCharsets.UTF_8)
                          .getBytes(StandardCharsets.UTF_8)));
    }
    try {
      HttpResponse<Void> response =
          client.send(request.build(), HttpResponse.BodyHandlers.discarding());
      if (response.statusCode() / 100 == 2) {
        return Optional.empty();
      }
      return Optional.of(warning("it answered HTTP " + response.statusCode()));
    } catch (HttpTimeoutException e) {
      return Optional.of(warning("no answer within " + seconds()));
    } catch (ConnectException e) {
      // Neither the exception's message nor its cause is shown: they may name the whole URL.
      return Optional.of(warning("cannot connect (refused, or no route)"));
    } catch (IOException e) {
      return Optional.of(warning("the connection failed (" + e.getClass().getSimpleName() + ")"));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.of(warning("interrupted"));
    }
  }

  private URI withoutUserInfo() {
    if (uri.getRawUserInfo() == null) {
      return uri;
    }
    return URI.create(uri.toString().replaceFirst("//[^/@]*@", "//"));
  }

  private String warning(String why) {
    return "WARNING: the report was not posted to the chat webhook at " + host() + ": " + why;
  }

  private String seconds() {
    double s = timeout.toMillis() / 1000.0;
    return (s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.1f", s))
        + " s";
  }

  @Override
  public String toString() {
    return "chat webhook at " + host();
  }
}
