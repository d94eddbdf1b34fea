package io.fusillade.sql;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What one request does with a connection: a query, an update, a transaction, a batch. It runs on
 * one of the node's worker threads, with a connection taken in the same task, and must not keep the
 * connection or any row beyond its call.
 */
@FunctionalInterface
public interface SqlWork {
  SqlResult run(Connection connection) throws SQLException;
}
