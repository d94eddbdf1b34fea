package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.RequestNames;
import io.fusillade.sql.SqlCheck;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * The entry point of Fusillade's SQL protocol for Gatling simulations, in the style of Gatling's
 * {@code HttpDsl}: {@code sql} configures the protocol, {@code sql("name")} starts a request.
 *
 * <pre>{@code
 * import static io.fusillade.gatling.sql.SqlDsl.*;
 *
 * SqlProtocolBuilder db = sql.url(url).poolSize(8);
 * ScenarioBuilder shop = scenario("shop")
 *     .feed(customers)
 *     .exec(sql("orders of customer").query("select * from orders where customer = ?")
 *         .params("#{customer}").check(rowCountBetween(0, 100)))
 *     .exec(sql("place order").transaction(
 *         statement("insert into orders(customer, amount) values (?, ?)", "#{customer}").param(10),
 *         statement("update customers set orders = orders + 1 where id = ?", "#{customer}")))
 *     .exec(sql("new order").query("insert into orders(customer) values (?) returning id")
 *         .params("#{customer}").check(column("id").saveAs("orderId")))
 *     .exec(sql("order").query("select * from orders where id = ?").params("#{orderId}"));
 * setUp(shop.injectOpen(constantUsersPerSec(200).during(30))).protocols(db);
 * }</pre>
 */
public final class SqlDsl {
  /**
   * The SQL protocol with its defaults: 8 connections per node, round robin, a down node skipped
   * until it answers again.
   */
  public static final SqlProtocolBuilder sql = new SqlProtocolBuilder(SqlSettings.DEFAULT);

  private SqlDsl() {}

  /**
   * Starts a SQL request. {@code name} is the request's name in reports, a Gatling EL string
   * ({@code "#{kind} by id"}) or a constant: keep it to a few distinct values (one per kind of
   * statement, not one per id).
   */
  public static SqlRequest sql(String name) {
    return new SqlRequest(RequestNames.of("SQL", name));
  }

  /** Starts a SQL request whose name is computed from the session (keep the names few). */
  public static SqlRequest sql(Function<Session, String> name) {
    return new SqlRequest(RequestNames.of("SQL", name));
  }

  /**
   * A node of the SQL protocol, to give it a zone: {@code sql.nodes(node(url).zone("eu-1"), ...)}
   * (see {@link SqlProtocolBuilder#nodes} and {@link SqlBalance#zone(String)}).
   *
   * <p>Example: {@code node("jdbc:postgresql://db1:5432/app").zone("eu-1")}.
   */
  public static SqlNodeBuilder node(String url) {
    return new SqlNodeBuilder(url, null);
  }

  /**
   * A statement of a {@link SqlRequest#transaction transaction} without parameters. (Without this
   * overload, {@code statement("update ...")} could mean either of the two below, and would not
   * compile.)
   */
  public static SqlTransactionBuilder.Statement statement(String sql) {
    return new SqlTransactionBuilder.Statement(sql, List.of());
  }

  /**
   * A statement of a {@link SqlRequest#transaction transaction}, with its parameters: Gatling EL
   * strings or constant texts; add others with {@link SqlTransactionBuilder.Statement#param}.
   */
  public static SqlTransactionBuilder.Statement statement(String sql, String... params) {
    return new SqlTransactionBuilder.Statement(sql, SqlParams.el(params));
  }

  /** A statement of a {@link SqlRequest#transaction transaction}, with its parameters. */
  public static SqlTransactionBuilder.Statement statement(String sql, Expression<?>... params) {
    return new SqlTransactionBuilder.Statement(sql, List.of(params));
  }

  /**
   * A request decided per virtual user at run time: its name, statement and values come from the
   * session (as the workload runner sends a workload's queries). Keep the names few.
   */
  public static SqlCallBuilder sqlCall(Function<Session, SqlCall> call) {
    return new SqlCallBuilder(call);
  }

  /**
   * A request that fails on purpose ({@link SqlFaults}): named {@code injected <kind>}, left out of
   * the run's error and latency checks unless a check names it.
   *
   * @param kind one of {@link SqlFaults#KINDS}, e.g. {@link SqlFaults#SYNTAX_ERROR}
   * @return the request
   * @throws IllegalArgumentException for an unknown kind
   */
  public static SqlCallBuilder injected(String kind) {
    if (SqlFaults.DEADLOCK.equals(kind)) {
      // the halves of the pairs in turn, whichever user sends them
      return sqlCall(session -> SqlFaults.nextDeadlockHalf(1, 0));
    }
    SqlCall call = SqlFaults.call(kind);
    return sqlCall(session -> call);
  }

  /** Check: exactly {@code rows} rows read or affected. */
  public static SqlCheck rowCount(long rows) {
    return SqlCheck.rowCount(rows);
  }

  /** Check: between {@code min} and {@code max} rows read or affected. */
  public static SqlCheck rowCountBetween(long min, long max) {
    return SqlCheck.rowCountBetween(min, max);
  }

  /** Check: the first row's {@code column} equals {@code expected} (compared as text). */
  public static SqlColumnCheck column(String column, Object expected) {
    return SqlColumnCheck.of(column).is(expected);
  }

  /**
   * Check: the result has a first row with {@code column}; with {@link SqlColumnCheck#saveAs} its
   * value goes to the session, for the next requests ({@code "#{key}"}).
   */
  public static SqlColumnCheck column(String column) {
    return SqlColumnCheck.of(column);
  }
}
