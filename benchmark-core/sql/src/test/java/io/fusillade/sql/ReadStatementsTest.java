package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReadStatementsTest {

  @Test
  void plainQueriesAreReads() {
    assertThat(ReadStatements.isRead("select * from accounts where id = ?")).isTrue();
    assertThat(ReadStatements.isRead("  SELECT count(*) FROM t")).isTrue();
    assertThat(ReadStatements.isRead("values (1), (2)")).isTrue();
    assertThat(ReadStatements.isRead("table accounts")).isTrue();
    assertThat(ReadStatements.isRead("show server_version")).isTrue();
    // a column whose name holds a keyword is not a lock
    assertThat(ReadStatements.isRead("select updated_at, format from t")).isTrue();
  }

  @Test
  void writesLocksAndSideEffectsStayOnThePrimary() {
    assertThat(ReadStatements.isRead("insert into t values (1)")).isFalse();
    assertThat(ReadStatements.isRead("update t set v = 1")).isFalse();
    assertThat(ReadStatements.isRead("select * from t where id = ? for update")).isFalse();
    assertThat(ReadStatements.isRead("select * from t for no key update skip locked")).isFalse();
    assertThat(ReadStatements.isRead("SELECT * FROM t FOR SHARE")).isFalse();
    assertThat(ReadStatements.isRead("select * into copy from t")).isFalse();
    assertThat(ReadStatements.isRead("select nextval('s')")).isFalse();
    assertThat(ReadStatements.isRead("select pg_advisory_lock(1)")).isFalse();
    assertThat(ReadStatements.isRead("with d as (delete from t returning *) select * from d"))
        .isFalse();
    assertThat(ReadStatements.isRead("selectx from t")).isFalse();
    assertThat(ReadStatements.isRead("select 1; update t set v = 2")).isFalse();
    assertThat(ReadStatements.isRead("select txid_current()")).isFalse();
    assertThat(ReadStatements.isRead("select 1;")).isTrue();
  }

  @Test
  void theHintKeepsAQueryOnThePrimary() {
    assertThat(ReadStatements.isRead("/* primary */ select refresh_totals()")).isFalse();
    assertThat(ReadStatements.isRead("/* PRIMARY */ select 1")).isFalse();
  }

  @Test
  void onlySingleQueriesAreReads() {
    assertThat(ReadStatements.isRead(Statements.query("select 1", new Object[0]))).isTrue();
    assertThat(
            ReadStatements.isRead(
                Statements.transaction(List.of(new Statements.Bound("select 1", new Object[0])))))
        .isFalse();
    assertThat(ReadStatements.isRead(Statements.batch("select 1", List.of()))).isFalse();
    assertThat(ReadStatements.isRead(Statements.query("select 1", new Object[0], Set.of(), 100)))
        .isTrue();
  }
}
