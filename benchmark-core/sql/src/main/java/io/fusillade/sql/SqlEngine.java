package io.fusillade.sql;

import java.util.Locale;

/** How the SQL protocol talks to the database. */
public enum SqlEngine {
  /**
   * Any JDBC driver on the class path, through a HikariCP pool, each statement on a worker thread
   * that blocks while the database answers. Works with every database and every driver option.
   */
  JDBC,

  /**
   * Fusillade's own client for PostgreSQL's wire protocol (PostgreSQL and the databases that speak
   * it), driven by the load generator's event loops: no worker threads, no hand-off between threads
   * per request, and requests pipelined on each connection. It costs several times less CPU per
   * request than JDBC, which matters when the load generator shares a machine with the database.
   * Plain TCP only (no TLS); authentication trust, password, md5 or SCRAM-SHA-256; parameters sent
   * as text, typed by the server.
   */
  NATIVE;

  /**
   * The engine named {@code name} ({@code jdbc} or {@code native}, any case).
   *
   * @throws IllegalArgumentException naming the choices
   */
  public static SqlEngine of(String name) {
    try {
      return valueOf(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown SQL engine \"" + name + "\": use jdbc or native", e);
    }
  }
}
