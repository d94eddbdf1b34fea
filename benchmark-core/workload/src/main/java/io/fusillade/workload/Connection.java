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
 */
public record Connection(List<String> urls, List<String> replicas, String user, String password) {

  /** Copies the lists. */
  public Connection {
    urls = List.copyOf(urls);
    replicas = List.copyOf(replicas);
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
        + ", user="
        + user
        + ", password="
        + (password == null ? "none" : "***")
        + "]";
  }
}
