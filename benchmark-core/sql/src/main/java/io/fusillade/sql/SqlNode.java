package io.fusillade.sql;

import java.util.List;
import java.util.function.Consumer;

/**
 * One database node as the load generator sees it: something that runs a request without blocking
 * the caller and hands back how it ended. {@link SqlClient} does it with JDBC on worker threads;
 * {@link io.fusillade.sql.pg.PgClient} speaks PostgreSQL's protocol on the caller's event loop.
 */
public interface SqlNode extends AutoCloseable {

  /**
   * Runs {@code work}, checks its result, and hands the outcome to {@code done} exactly once. Never
   * throws for a database error or a full queue: those are {@code KO} outcomes.
   */
  void execute(SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done);

  /** Stops taking requests, lets those in flight finish for a while, and releases connections. */
  @Override
  void close();
}
