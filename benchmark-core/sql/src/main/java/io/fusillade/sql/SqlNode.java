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
   * Runs {@code work} within the node's own request timeout; see {@link #execute(SqlWork, List,
   * SqlTimeout, Consumer)}.
   */
  default void execute(SqlWork work, List<SqlCheck> checks, Consumer<SqlOutcome> done) {
    execute(work, checks, null, done);
  }

  /**
   * Runs {@code work}, checks its result, and hands the outcome to {@code done} exactly once. Never
   * throws for a database error or a full queue: those are {@code KO} outcomes. A request still
   * running when {@code timeout} has passed since it was sent is cancelled on the server and ends
   * as a KO with the timeout's reason.
   *
   * @param timeout this request's timeout, or null for the node's ({@link
   *     SqlClientOptions#requestTimeout()})
   */
  void execute(SqlWork work, List<SqlCheck> checks, SqlTimeout timeout, Consumer<SqlOutcome> done);

  /**
   * Tries whether the node takes requests again after it was marked down, and gets ready for them:
   * a TCP connection to its port, then a real connection with the engine (log-in included), then
   * fresh connections in place of those the failure broke. Called by the cluster's probe thread,
   * never on a request's path.
   *
   * @throws Exception when the node still cannot be used; its message or cause says why
   */
  void probe() throws Exception;

  /** Stops taking requests, lets those in flight finish for a while, and releases connections. */
  @Override
  void close();
}
