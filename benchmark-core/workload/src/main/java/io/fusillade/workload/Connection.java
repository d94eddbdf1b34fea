package io.fusillade.workload;

import io.fusillade.sql.JdbcUrls;
import java.util.List;

/**
 * Where the workload runs, with {@code ${env:NAME}} already replaced. {@link #toString()} never
 * shows the password, nor one written in a URL.
 *
 * @param urls the endpoints (one or more, for cluster-aware balancing)
 * @param replicas streaming replicas of those, which take reads only (none by default)
 * @param user the user, or null
 * @param password the password, or null
 * @param zones the zone of each node, the {@code urls} then the {@code replicas} ("" for a node
 *     without one); empty when no node has one ({@code urls: [{url: ..., zone: eu-1}]})
 */
public record Connection(
    List<String> urls, List<String> replicas, String user, String password, List<String> zones) {

  /** Copies the lists. */
  public Connection {
    urls = List.copyOf(urls);
    replicas = List.copyOf(replicas);
    zones = List.copyOf(zones);
  }

  /** A connection whose nodes have no zones. */
  public Connection(List<String> urls, List<String> replicas, String user, String password) {
    this(urls, replicas, user, password, List.of());
  }

  /** A connection without replicas. */
  public Connection(List<String> urls, String user, String password) {
    this(urls, List.of(), user, password);
  }

  @Override
  public String toString() {
    return "Connection[urls="
        + urls.stream().map(JdbcUrls::mask).toList()
        + (replicas.isEmpty() ? "" : ", replicas=" + replicas.stream().map(JdbcUrls::mask).toList())
        + (zones.isEmpty() ? "" : ", zones=" + zones)
        + ", user="
        + user
        + ", password="
        + (password == null ? "none" : "***")
        + "]";
  }
}
