package io.fusillade.gatling.sql;

import static io.fusillade.gatling.BuilderAssertions.eachMethodReturnsAChangedCopy;
import static io.fusillade.gatling.sql.SqlDsl.column;
import static io.fusillade.gatling.sql.SqlDsl.rowCount;
import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.fusillade.gatling.sql.SqlDsl.statement;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.Expression;
import io.fusillade.gatling.TestSessions;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.fusillade.sql.Statements;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The SQL DSL's builders, without Gatling running and without a database. */
class SqlBuildersTest {

  @Test
  void theProtocolsDefaults() {
    SqlSettings defaults = sql.settings();
    assertThat(defaults.urls()).isEmpty();
    SqlConnections connections = defaults.connections();
    assertThat(connections.user()).isNull();
    assertThat(connections.poolSize()).isEqualTo(8);
    assertThat(connections.queueCapacity()).isNull();
    assertThat(connections.connectionTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(connections.requestTimeout()).isEqualTo(SqlClientOptions.DEFAULT_REQUEST_TIMEOUT);
    assertThat(defaults.balance()).hasToString("round robin");
    assertThat(defaults.failoverBackoff()).isNull();
    assertThat(defaults.engine()).isEqualTo(SqlEngine.JDBC);
  }

  @Test
  void everyProtocolMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<SqlProtocolBuilder>> methods =
        Map.ofEntries(
            Map.entry("url", b -> b.url("jdbc:postgresql://a/db")),
            Map.entry("urls", b -> b.urls("jdbc:postgresql://a/db", "jdbc:postgresql://b/db")),
            Map.entry("user", b -> b.user("app")),
            Map.entry("password", b -> b.password("secret")),
            Map.entry("poolSize", b -> b.poolSize(3)),
            Map.entry("queueCapacity", b -> b.queueCapacity(5)),
            Map.entry("connectionTimeout", b -> b.connectionTimeout(Duration.ofSeconds(1))),
            Map.entry("requestTimeout", b -> b.requestTimeout(Duration.ofSeconds(2))),
            Map.entry("balance", b -> b.balance(SqlBalance.random())),
            Map.entry("failover", b -> b.failover(Duration.ofSeconds(5))),
            Map.entry("engine", b -> b.engine(SqlEngine.NATIVE)),
            Map.entry("nodes", b -> b.nodes(SqlDsl.node("jdbc:postgresql://a/db").zone("eu-1"))),
            Map.entry("replicaNodes", b -> b.replicaNodes(SqlDsl.node("jdbc:postgresql://r/db"))),
            Map.entry("maxTries", b -> b.maxTries(3)),
            Map.entry("latencyLimit", b -> b.latencyLimit(Duration.ofMillis(50))));
    eachMethodReturnsAChangedCopy(sql, SqlProtocolBuilder::settings, methods);
  }

  @Test
  void theProtocolNeedsAUrl() {
    assertThatThrownBy(sql::protocol)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("The SQL protocol needs a JDBC URL: sql.url(\"jdbc:...\")");
    assertThatThrownBy(() -> sql.engine(null)).hasMessage("engine");
  }

  @Test
  void theProtocolHasOneNodePerUrlWith128QueuedStatementsPerConnectionAndAtLeast65536() {
    SqlProtocol protocol =
        (SqlProtocol)
            sql.urls("jdbc:postgresql://a/db", "jdbc:postgresql://b/db")
                .user("app")
                .poolSize(2)
                .protocol();
    assertThat(protocol.nodes()).hasSize(2);
    assertThat(protocol.nodes().get(0).queueCapacity()).isEqualTo(65_536);
    SqlProtocol large = (SqlProtocol) sql.url("jdbc:x").poolSize(1000).protocol();
    assertThat(large.nodes().get(0).queueCapacity()).isEqualTo(128_000);
    assertThat(protocol.nodes().get(1).user()).isEqualTo("app");
    assertThat(sql.url("jdbc:x").password("secret").settings().toString()).doesNotContain("secret");
    SqlProtocol queued = (SqlProtocol) sql.url("jdbc:x").queueCapacity(5).protocol();
    assertThat(queued.nodes().get(0).queueCapacity()).isEqualTo(5);
  }

  @Test
  void aRequestNeedsAName() {
    assertThatThrownBy(() -> sql((String) null)).hasMessage("a SQL request needs a name");
    assertThatThrownBy(() -> sql(" ")).hasMessage("a SQL request needs a name");
  }

  @Test
  void requestNamesMayComeFromTheSession() {
    assertThat(sql("#{kind} by id").name().resolve(TestSessions.with("kind", "order")))
        .isEqualTo("order by id");
    assertThat(sql("by id").name().isConstant()).isTrue();
    assertThat(sql(session -> "computed").name().resolve(TestSessions.empty()))
        .isEqualTo("computed");
  }

  @Test
  void aStatementsDefaults() {
    SqlStatement s = sql("q").query("select 1").statement();
    assertThat(s.sql()).isEqualTo("select 1");
    assertThat(s.params()).isEmpty();
    assertThat(s.checks()).isEmpty();
    assertThat(s.fetchSize()).isZero();
  }

  @Test
  void everyStatementMethodReturnsAChangedCopy() {
    Map<String, UnaryOperator<SqlStatementBuilder>> methods =
        Map.of(
            "params(String...)", b -> b.params("#{id}"),
            "params(Expression...)", b -> b.params(Expression.constant(1)),
            "param(String)", b -> b.param("#{id}"),
            "param(Object)", b -> b.param(10),
            "param(Function)", b -> b.param(session -> 1),
            "param(Expression)", b -> b.param(Expression.constant(1)),
            "check", b -> b.check(rowCount().is(1)),
            "fetchSize", b -> b.fetchSize(100),
            "timeout", b -> b.timeout(Duration.ofMinutes(10)),
            "maxTries", b -> b.maxTries(3));
    eachMethodReturnsAChangedCopy(
        sql("q").query("select ?"), SqlStatementBuilder::statement, methods);
  }

  @Test
  void parametersAreTypedByTheirOverload() {
    var session = TestSessions.with("id", 7);
    SqlStatement s =
        sql("q")
            .query("select ?, ?, ?, ?, ?")
            .param("#{id}")
            .param("text")
            .param(10)
            .param(x -> x.getInt("id") * 2)
            .param(Expression.constant(true))
            .statement();
    assertThat(SqlParams.values(s.params(), session)).containsExactly(7, "text", 10, 14, true);
    SqlStatement replaced = sql("q").query("select ?").param(1).params("#{id}", "x").statement();
    assertThat(SqlParams.values(replaced.params(), session)).containsExactly(7, "x");
  }

  @Test
  void aStatementsTextIsAnElTemplate() {
    var t = SqlStatementBuilder.jdbc("select * from #{table} where id = $1");
    assertThat(t.resolve(TestSessions.with("table", "orders")).sql())
        .isEqualTo("select * from orders where id = ?");
    var fixed = SqlStatementBuilder.jdbc("select 1 where 1 = ?");
    assertThat(fixed.isConstant()).as("rewritten once, not per request").isTrue();
    assertThat(fixed.constantValue().sql()).isEqualTo("select 1 where 1 = ?");
  }

  @Test
  void checksAddUp() {
    SqlStatement s =
        sql("q")
            .query("select 1")
            .check(rowCount().is(1))
            .check(column("a"), column("b"))
            .statement();
    assertThat(s.checks()).hasSize(3);
  }

  @Test
  void transactionStatementsTakeTypedParameters() {
    var statement = statement("update t set n = ? where id = ?", "#{n}").param(5);
    assertThat(SqlParams.values(statement.params(), TestSessions.with("n", 2)))
        .containsExactly(2, 5);
    var typed = statement("select ?", Expression.constant(1));
    assertThat(typed.param("x")).isNotSameAs(typed);
    assertThat(typed.params()).hasSize(1);
    SqlTransactionBuilder transaction = sql("t").transaction(statement, typed);
    assertThat(transaction.transaction().statements()).containsExactly(statement, typed);
  }

  @Test
  void theTextsOfATransactionsStatementsAndOfABatchAreElTemplatesToo() {
    SqlTransaction t =
        sql("t")
            .transaction(
                statement("update #{table} set n = ? where id = 1", "#{n}"), statement("select 1"))
            .transaction();
    var texts = SqlTransactionBuilder.texts(t);
    assertThat(texts.get(1).isConstant()).as("rewritten once, not per request").isTrue();
    var session = TestSessions.with("table", "counters").set("n", 2);
    List<Statements.Bound> bound = SqlTransactionBuilder.bind(t, texts, session);
    assertThat(bound)
        .extracting(Statements.Bound::sql)
        .containsExactly("update counters set n = ? where id = 1", "select 1");
    assertThat(bound.get(0).params()).containsExactly(2);

    var batch = sql("b").batch("insert into #{table} values ($1)").batch();
    assertThat(SqlBatchBuilder.text(batch).resolve(session).sql())
        .isEqualTo("insert into counters values (?)");
  }

  @Test
  void aTransactionStatementMayHaveNoParameters() {
    var bare = statement("update t set n = n + 1");
    assertThat(bare.sql()).isEqualTo("update t set n = n + 1");
    assertThat(bare.params()).isEmpty();
  }

  @Test
  void aTransactionNeedsAStatement() {
    assertThatThrownBy(() -> sql("t").transaction())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("transaction \"t\" has no statement");
  }

  @Test
  void aBatchNeedsItsParameterSets() {
    SqlBatchBuilder batch = sql("b").batch("insert into t values (?)");
    assertThat(batch.batch().parameterSets()).isNull();
    SqlBatchBuilder withSets = batch.parameterSets(session -> List.of(List.of(1)));
    assertThat(withSets).isNotSameAs(batch);
    assertThat(batch.batch().parameterSets()).isNull();
    assertThat(withSets.batch().parameterSets()).isNotNull();
    assertThatThrownBy(batch::asScala)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("batch \"b\" needs .parameterSets(session -> ...)");
  }

  @Test
  void nodesCarryTheirZonesIntoTheProtocol() {
    SqlProtocol protocol =
        (SqlProtocol)
            sql.nodes(
                    SqlDsl.node("jdbc:postgresql://a/db").zone("eu-1"),
                    SqlDsl.node("jdbc:postgresql://b/db"))
                .replicaNodes(SqlDsl.node("jdbc:postgresql://r/db").zone("us-1"))
                .balance(SqlBalance.zone("eu-1"))
                .maxTries(4)
                .latencyLimit(Duration.ofMillis(50))
                .protocol();
    assertThat(protocol.zones()).containsExactly("eu-1", "", "us-1");
    assertThat(protocol.replicas()).isEqualTo(1);
    assertThat(protocol.maxTries()).isEqualTo(4);
    assertThat(protocol.latencyLimit()).isEqualTo(Duration.ofMillis(50));
    assertThat(protocol.balance()).hasToString("zone eu-1");
  }

  @Test
  void zoneBalancingNeedsANodeInTheInjectorsZone() {
    var nodes =
        sql.nodes(
            SqlDsl.node("jdbc:postgresql://a/db").zone("eu-1"),
            SqlDsl.node("jdbc:postgresql://b/db").zone("us-1"));
    assertThatThrownBy(() -> nodes.balance(SqlBalance.zone("ap-1")).protocol())
        .hasMessage(
            "zone balancing: no node is in the injector's zone \"ap-1\" (the nodes' zones: eu-1,"
                + " us-1)");
    assertThatThrownBy(
            () -> sql.urls("jdbc:postgresql://a/db").balance(SqlBalance.zone("eu-1")).protocol())
        .hasMessageContaining("no node has a zone");
    assertThatThrownBy(() -> SqlDsl.node("jdbc:x").zone(" ")).hasMessage("a zone needs a name");
    assertThatThrownBy(() -> sql.maxTries(0)).hasMessageContaining("at least 1");
  }

  @Test
  void requestsCarryTheirOwnTimeoutAndTries() {
    SqlStatement query =
        sql("q").query("select 1").timeout(Duration.ofSeconds(90)).maxTries(3).statement();
    assertThat(query.limits().timeout().duration()).isEqualTo(Duration.ofSeconds(90));
    assertThat(query.limits().timeout().reason()).isEqualTo("timed out after 90 s");
    assertThat(query.limits().maxTries()).isEqualTo(3);
    assertThat(sql("q").query("select 1").statement().limits()).isEqualTo(RequestLimits.NONE);
    var transaction =
        sql("t").transaction(statement("select 1")).timeout(Duration.ofSeconds(5)).maxTries(2);
    assertThat(transaction.transaction().limits().maxTries()).isEqualTo(2);
    var batch = sql("b").batch("select ?").maxTries(7);
    assertThat(batch.batch().limits().maxTries()).isEqualTo(7);
    assertThatThrownBy(() -> sql("q").query("select 1").maxTries(0))
        .hasMessageContaining("at least 1");
    SqlCall call = new SqlCall("c", "select 1", List.of()).withMaxTries(4);
    assertThat(call.withTimeout(Duration.ofMillis(1500)).timeout().reason())
        .isEqualTo("timed out after 1500 ms");
    assertThat(call.maxTries()).isEqualTo(4);
  }

  @Test
  void aCallNeedsAFunction() {
    assertThatThrownBy(() -> SqlDsl.sqlCall(null))
        .hasMessage("sqlCall needs a function of the session");
  }
}
