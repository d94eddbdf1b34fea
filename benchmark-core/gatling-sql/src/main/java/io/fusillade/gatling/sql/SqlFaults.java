package io.fusillade.gatling.sql;

import io.fusillade.record.Injected;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Statements that fail on purpose on PostgreSQL (fault injection), each sent as request {@code
 * injected <kind>} ({@link Injected}): the run's error and latency checks, its abort rules and a
 * limit search leave them out unless a check names them, and the report shows them beside the good
 * requests. Mix them into a scenario by share:
 *
 * <pre>{@code
 * randomSwitch().on(
 *     percent(1).then(exec(SqlDsl.injected(SqlFaults.SYNTAX_ERROR))),
 *     percent(99).then(exec(sql("by id").query("select ... where id = $1", "#{id}"))))
 * }</pre>
 *
 * A workload file says the same with {@code injected: [{kind: syntax error, share: 1%}]}.
 */
public final class SqlFaults {
  /** A statement PostgreSQL cannot parse: SQLState 42601. */
  public static final String SYNTAX_ERROR = "syntax error";

  /** The insert of a key that exists into {@value #TABLE}: SQLState 23505. */
  public static final String CONSTRAINT_VIOLATION = "constraint violation";

  /**
   * {@code pg_sleep(1)} in a transaction whose {@code SET LOCAL statement_timeout} is 100 ms:
   * SQLState 57014; the setting ends with the transaction, never reaching the connection's next
   * query.
   */
  public static final String STATEMENT_TIMEOUT = "statement timeout";

  /**
   * Two transactions that update two rows of {@value #DEADLOCK_TABLE} in opposite orders, sent in
   * turn ({@link #deadlockHalf}): the first locks its pair's first row and waits up to {@value
   * #PARTNER_WAIT_SECONDS} s for the second to hold the other (an advisory lock is its sign), then
   * asks for it while the second asks for the first. PostgreSQL finds the deadlock after its {@code
   * deadlock_timeout} (1 s by default) and aborts one of them: SQLState 40P01. A first half whose
   * partner does not come in time goes on alone and commits. Successive pairs take different rows
   * ({@value #DEADLOCK_PAIRS} pairs in turn), so that a pair waits for its partner only, not for
   * the pairs before it.
   */
  public static final String DEADLOCK = "deadlock";

  /** Every kind. */
  public static final List<String> KINDS =
      List.of(SYNTAX_ERROR, CONSTRAINT_VIOLATION, STATEMENT_TIMEOUT, DEADLOCK);

  /** The table the constraint violations are made on, with its one row: see {@link #prepare}. */
  public static final String TABLE = "fusillade_injected";

  /** The table of the deadlocks, with the rows of its pairs: see {@link #prepare}. */
  public static final String DEADLOCK_TABLE = "fusillade_deadlock";

  /** How long the first half of a deadlock waits for its partner. */
  public static final double PARTNER_WAIT_SECONDS = 2;

  /** The pairs of rows the deadlocks take in turn. */
  public static final int DEADLOCK_PAIRS = 64;

  /** The first of the advisory locks by which a second half says it holds its row. */
  private static final int PARTNER_LOCK = 0x0F050000;

  private SqlFaults() {}

  /**
   * The request of a kind, the same every time.
   *
   * @param kind one of {@link #KINDS} but {@link #DEADLOCK}, whose requests are the halves of pairs
   *     ({@link #nextDeadlockHalf})
   * @return the call, named {@code injected <kind>}
   * @throws IllegalArgumentException for another kind
   */
  public static SqlCall call(String kind) {
    if (DEADLOCK.equals(kind)) {
      throw new IllegalArgumentException(
          "a deadlock is pairs of transactions: nextDeadlockHalf gives the next one");
    }
    String name = Injected.name(kind);
    return switch (kind) {
      case SYNTAX_ERROR -> new SqlCall(name, "selec 1 from " + TABLE, List.of());
      case CONSTRAINT_VIOLATION ->
          new SqlCall(name, "insert into " + TABLE + " (id) values (1)", List.of());
      case STATEMENT_TIMEOUT ->
          SqlCall.transaction(name, "set local statement_timeout = 100", "select pg_sleep(1)");
      default ->
          throw new IllegalArgumentException(
              "no injected kind \"" + kind + "\": one of " + String.join(", ", KINDS));
    };
  }

  /** The halves this process has sent: one sequence for all its users, so that halves pair up. */
  private static final java.util.concurrent.atomic.AtomicLong HALVES =
      new java.util.concurrent.atomic.AtomicLong();

  /**
   * The next {@link #DEADLOCK} request of this process. Its users share one sequence (a user sends
   * one request at a time, so it can never be its own partner); of several injectors, injector
   * {@code index} of {@code injectors} sends halves {@code index}, {@code index + injectors}, ...
   * of the test's sequence, so that started together they pair up as one would.
   *
   * @param injectors the test's injectors (1 for one)
   * @param index this one's index among them
   * @return the half, named {@code injected deadlock}
   */
  public static SqlCall nextDeadlockHalf(int injectors, int index) {
    return deadlockHalf(HALVES.getAndIncrement() * injectors + index);
  }

  /**
   * The n-th {@link #DEADLOCK} request: the first half of a pair for even {@code n}, the second for
   * odd.
   *
   * @param n the count of deadlock requests before this one
   * @return the transaction, named {@code injected deadlock}
   */
  public static SqlCall deadlockHalf(long n) {
    long pair = (n / 2) % DEADLOCK_PAIRS;
    long mine = 2 * pair + 1;
    long theirs = mine + 1;
    long sign = PARTNER_LOCK + pair;
    String name = Injected.name(DEADLOCK);
    if (n % 2 == 0) {
      return SqlCall.transaction(
          name,
          update(mine),
          "do $$ begin for i in 1.."
              + (int) (PARTNER_WAIT_SECONDS * 100)
              + " loop exit when exists (select 1 from pg_locks where locktype = 'advisory'"
              + " and objid = "
              + sign
              + " and pid <> pg_backend_pid()); perform pg_sleep(0.01); end loop; end $$",
          update(theirs));
    }
    return SqlCall.transaction(
        name, update(theirs), "select pg_advisory_xact_lock_shared(" + sign + ")", update(mine));
  }

  private static String update(long row) {
    return "update " + DEADLOCK_TABLE + " set n = n + 1 where id = " + row;
  }

  /**
   * What the kinds need before the load: the table of the constraint violations with its row, the
   * table of the deadlocks with the rows of its pairs.
   *
   * @param kinds the kinds a run injects
   * @return the statements (none when neither is injected)
   */
  public static List<String> setUp(List<String> kinds) {
    List<String> statements = new java.util.ArrayList<>();
    if (kinds.contains(CONSTRAINT_VIOLATION)) {
      statements.add("create table if not exists " + TABLE + " (id integer primary key)");
      statements.add("insert into " + TABLE + " (id) values (1) on conflict do nothing");
    }
    if (kinds.contains(DEADLOCK)) {
      statements.add(
          "create table if not exists "
              + DEADLOCK_TABLE
              + " (id integer primary key, n bigint not null default 0)");
      statements.add(
          "insert into "
              + DEADLOCK_TABLE
              + " (id) select generate_series(1, "
              + 2 * DEADLOCK_PAIRS
              + ") on conflict do nothing");
    }
    return List.copyOf(statements);
  }

  /**
   * Runs {@link #setUp} on a connection, before the load.
   *
   * @param connection a connection to the database under test
   * @param kinds the kinds the run injects
   * @throws SQLException when the database refuses
   */
  public static void prepare(Connection connection, List<String> kinds) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (String sql : setUp(kinds)) {
        statement.execute(sql);
      }
    }
  }
}
