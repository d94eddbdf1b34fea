package io.fusillade.bench;

import io.fusillade.local.LocalPostgres;

/**
 * The embedded PostgreSQL that {@code fusillade run} starts, on its own, for the benchmark scripts
 * that compare Fusillade with a peer on the very same server ({@code tpcb-vs-pgbench.sh}): prints
 * {@code port=PORT} and {@code url=JDBC_URL} (user {@value LocalPostgres#USER}, no password) and
 * runs until its standard input closes, then stops the server and deletes its data.
 */
public final class EmbeddedPostgresMain {
  private EmbeddedPostgresMain() {}

  public static void main(String[] args) throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      System.out.println("port=" + postgres.port());
      System.out.println("url=" + postgres.jdbcUrl());
      System.out.flush();
      while (System.in.read() != -1) {
        // until the script closes our input
      }
    }
  }
}
