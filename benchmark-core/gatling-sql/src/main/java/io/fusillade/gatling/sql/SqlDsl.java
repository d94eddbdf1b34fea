package io.fusillade.gatling.sql;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.RequestNames;
import io.fusillade.gatling.check.Check;
import io.fusillade.sql.SqlResult;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 *         .params("#{customer}").check(rowCount().lte(100)))
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
   *
   * <p>Example: {@code sql("account by id").query("select * from accounts where id =
   * ?").params("#{id}")}.
   */
  public static SqlRequest sql(String name) {
    return new SqlRequest(RequestNames.of("SQL", name));
  }

  /**
   * Starts a SQL request whose name is computed from the session (keep the names few).
   *
   * <p>Example: {@code sql(session -> session.getString("kind") + " lookup")}.
   */
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
   *
   * <p>Example: {@code statement("update counters set n = n + 1")}.
   */
  public static SqlTransactionBuilder.Statement statement(String sql) {
    return new SqlTransactionBuilder.Statement(sql, List.of());
  }

  /**
   * A statement of a {@link SqlRequest#transaction transaction}, with its parameters: Gatling EL
   * strings or constant texts; add others with {@link SqlTransactionBuilder.Statement#param}.
   *
   * <p>Example: {@code statement("insert into orders(customer) values (?)", "#{customer}")}.
   */
  public static SqlTransactionBuilder.Statement statement(String sql, String... params) {
    return new SqlTransactionBuilder.Statement(sql, SqlParams.el(params));
  }

  /**
   * A statement of a {@link SqlRequest#transaction transaction}, with its parameters.
   *
   * <p>Example: {@code statement("insert into t(a) values (?)", Expression.constant(1))}.
   */
  public static SqlTransactionBuilder.Statement statement(String sql, Expression<?>... params) {
    return new SqlTransactionBuilder.Statement(sql, List.of(params));
  }

  /**
   * A request decided per virtual user at run time: its name, statement and values come from the
   * session (as the workload runner sends a workload's queries). Keep the names few.
   *
   * <p>Example: {@code sqlCall(session -> new SqlCall("lookup", "select 1", List.of()))}.
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
   *     <p>Example: {@code exec(injected(SqlFaults.SYNTAX_ERROR))}.
   */
  public static SqlCallBuilder injected(String kind) {
    if (SqlFaults.DEADLOCK.equals(kind)) {
      // the halves of the pairs in turn, whichever user sends them
      return sqlCall(session -> SqlFaults.nextDeadlockHalf(1, 0));
    }
    SqlCall call = SqlFaults.call(kind);
    return sqlCall(session -> call);
  }

  /**
   * Check: the rows read or affected, a {@code Long}.
   *
   * <p>Example: {@code .check(rowCount().is(1))} or {@code .check(rowCount().gte(1).lte(50))}.
   */
  public static Check<SqlResult, Long> rowCount() {
    return Check.of("rowCount", Set.of(), result -> Optional.of(result.rows()));
  }

  /**
   * Check: the first row's column of that name (any case), as the driver reads it; not found when
   * there is no row or the value is SQL {@code NULL}. Only the columns that checks name are read.
   *
   * <p>Example: {@code .check(column("id").saveAs("orderId"))}, {@code
   * column("status").is("paid")}.
   */
  public static Check<SqlResult, Object> column(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a column check needs a column name");
    }
    String key = name.toLowerCase(Locale.ROOT);
    return Check.of("column(" + key + ")", Set.of(key), result -> firstRow(result, key));
  }

  /**
   * Check: the first row's column at that position, from 1 as in JDBC; not found when there is no
   * row or the value is SQL {@code NULL}.
   *
   * <p>Example: {@code sql("count").query("select count(*) from t").check(column(1).gte(1))}.
   */
  public static Check<SqlResult, Object> column(int index) {
    if (index < 1) {
      throw new IllegalArgumentException("columns count from 1, got " + index);
    }
    String key = SqlResult.columnAt(index);
    return Check.of("column(" + index + ")", Set.of(key), result -> firstRow(result, key));
  }

  /**
   * Check: every row read, a {@code List} of rows, each a {@code Map} from lower-case column label
   * to value in column order (empty for a statement without rows). Only a request with such a check
   * keeps its rows: keep them few.
   *
   * <p>Example: {@code .check(rows().transform(r -> r.get(0).get("id")).saveAs("firstId"))}, {@code
   * rows().transform(List::size).is(3)}.
   */
  public static Check<SqlResult, List<Map<String, Object>>> rows() {
    return Check.of("rows", Set.of(SqlResult.ALL_ROWS), result -> Optional.of(result.allRows()));
  }

  private static Optional<Object> firstRow(SqlResult result, String key) {
    return result.rows() == 0 ? Optional.empty() : Optional.ofNullable(result.firstRow().get(key));
  }
}
