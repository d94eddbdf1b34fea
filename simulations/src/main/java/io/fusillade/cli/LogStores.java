package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.logs.LogsClientOptions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Checks before a log run, so that an unreachable node is a one-line user error. */
final class LogStores {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private LogStores() {}

  /**
   * Sends {@code GET /} to a node: any HTTP answer (even 401) means it is reachable.
   *
   * @param url the node's base URL
   * @throws FusilladeException naming the URL (credentials masked) when it cannot be reached
   */
  static void checkReachable(String url) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    try {
      client.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (IOException | IllegalArgumentException e) {
      String why =
          e instanceof java.net.ConnectException
              ? "connection refused (nothing listens there)"
              : e instanceof java.net.http.HttpTimeoutException
                  ? "no answer within " + TIMEOUT.toSeconds() + " s"
                  : e.getMessage() == null ? "cannot connect" : e.getMessage();
      throw new FusilladeException(
          "cannot connect to " + LogsClientOptions.mask(url) + ": " + firstLine(why));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FusilladeException(
          "interrupted while connecting to " + LogsClientOptions.mask(url));
    }
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
