package io.fusillade.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.fusillade.FusilladeException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.LoggerFactory;

/**
 * Refuses a topic workload's Kafka cluster before the run when it cannot be reached, in one line
 * and within seconds, as {@link DatabaseOptions#checkReachable} and {@link
 * LogStores#checkReachable} do for the other protocols. Without it the Gatling JVM's clients
 * retried for their ready timeout (74 s), printing a warning at each attempt and a stack trace at
 * the end.
 *
 * <p>Two steps: a TCP connection to each bootstrap server, at once (the reason a user can act on:
 * refused, unknown host, timed out), where one that connects is enough, as for Kafka's clients;
 * then the cluster's answer to an admin request with the workload's client settings (its security
 * among them), so that a port that is not Kafka's, or that refuses the credentials, is refused too.
 * Kafka's client logs are off meanwhile: the answer is the line this throws.
 */
final class KafkaBootstrap {
  /** How long a TCP connection may take. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  /** How long the cluster may take to answer. */
  static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(5);

  private KafkaBootstrap() {}

  /**
   * Checks that Kafka answers at {@code bootstrap}.
   *
   * @param bootstrap {@code host:port[,host:port...]}
   * @param common the client settings of the workload's {@code kafka} section (security)
   * @param where what named the servers, for the message: {@code --url}, {@code w.yml: kafka}
   * @throws FusilladeException in one line, naming the servers and the reason
   */
  static void checkReachable(String bootstrap, Map<String, String> common, String where) {
    List<InetSocketAddress> servers = parse(bootstrap, where);
    List<String> failures = connect(servers);
    if (failures.size() == servers.size()) {
      throw new FusilladeException(
          where + ": cannot connect to Kafka at " + bootstrap + ": " + String.join("; ", failures));
    }
    checkAnswers(bootstrap, common, where);
  }

  /** The servers, each {@code host:port} ({@code [v6]:port}). */
  static List<InetSocketAddress> parse(String bootstrap, String where) {
    List<InetSocketAddress> servers = new ArrayList<>();
    for (String server : bootstrap.split(",")) {
      String s = server.strip();
      int colon = s.lastIndexOf(':');
      int port = -1;
      if (colon > 0) {
        try {
          port = Integer.parseInt(s.substring(colon + 1));
        } catch (NumberFormatException e) {
          port = -1;
        }
      }
      if (port < 1 || port > 65535) {
        throw new FusilladeException(
            where + ": '" + s + "' is not a Kafka bootstrap server (host:port, comma-separated)");
      }
      String host = s.substring(0, colon);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
      servers.add(InetSocketAddress.createUnresolved(host, port));
    }
    return servers;
  }

  /** Connects to every server at once; the failures, each {@code host:port (reason)}. */
  private static List<String> connect(List<InetSocketAddress> servers) {
    List<CompletableFuture<String>> attempts = new ArrayList<>();
    for (InetSocketAddress server : servers) {
      attempts.add(CompletableFuture.supplyAsync(() -> connect(server)));
    }
    List<String> failures = new ArrayList<>();
    for (CompletableFuture<String> attempt : attempts) {
      String failure = attempt.join();
      if (failure != null) {
        failures.add(failure);
      }
    }
    return failures;
  }

  /** Null when it connects, else {@code host:port (reason)}. */
  private static String connect(InetSocketAddress unresolved) {
    String name = unresolved.getHostString() + ":" + unresolved.getPort();
    InetSocketAddress address =
        new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
    if (address.isUnresolved()) {
      return name + " (unknown host)";
    }
    try (Socket socket = new Socket()) {
      socket.connect(address, (int) CONNECT_TIMEOUT.toMillis());
      return null;
    } catch (java.net.SocketTimeoutException e) {
      return name + " (no answer within " + CONNECT_TIMEOUT.toSeconds() + " s)";
    } catch (IOException e) {
      return name
          + " ("
          + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
          + ")";
    }
  }

  private static FusilladeException noAnswer(String where, String bootstrap) {
    return new FusilladeException(
        where
            + ": Kafka at "
            + bootstrap
            + " did not answer within "
            + ANSWER_TIMEOUT.toSeconds()
            + " s (a port that is not Kafka's, or settings it refuses)");
  }

  /** An admin request (the cluster's id) answered within {@link #ANSWER_TIMEOUT}. */
  private static void checkAnswers(String bootstrap, Map<String, String> common, String where) {
    Map<String, Object> properties = new LinkedHashMap<>(common);
    properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    int timeout = (int) ANSWER_TIMEOUT.toMillis();
    properties.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout);
    properties.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeout);
    properties.put(AdminClientConfig.CLIENT_ID_CONFIG, "fusillade-check");
    Logger kafka = (Logger) LoggerFactory.getLogger("org.apache.kafka");
    Level level = kafka.getLevel();
    kafka.setLevel(Level.OFF); // its retries would each print a warning
    Admin admin = null;
    try {
      admin = Admin.create(properties);
      admin.describeCluster().clusterId().get(timeout, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw noAnswer(where, bootstrap);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (cause instanceof org.apache.kafka.common.errors.TimeoutException) {
        // the admin's own timeout, equal to the wait here: whichever ends first, no answer
        throw noAnswer(where, bootstrap);
      }
      throw new FusilladeException(
          where + ": Kafka at " + bootstrap + " refused the check: " + firstLine(cause));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FusilladeException("interrupted while connecting to Kafka at " + bootstrap);
    } catch (org.apache.kafka.common.KafkaException e) {
      throw new FusilladeException(where + ": Kafka client settings: " + firstLine(e));
    } finally {
      if (admin != null) {
        admin.close(Duration.ZERO); // not the call still retrying: it would wait for its timeout
      }
      kafka.setLevel(level);
    }
  }

  private static String firstLine(Throwable e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
