package io.fusillade.scenarios.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gatling.sql.SqlDsl;
import io.fusillade.gatling.sql.SqlFaults;
import io.fusillade.workload.InjectedFault;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The injected statements' mix: seeded, in their shares, every workload kind a real statement. */
class InjectedSqlTest {
  @Test
  void everyKindAWorkloadMayNameHasItsStatementAndName() {
    assertThat(InjectedFault.SQL_KINDS).containsExactlyElementsOf(SqlFaults.KINDS);
    for (String kind : InjectedFault.SQL_KINDS) {
      assertThat(InjectedSql.call(kind).name()).isEqualTo("injected " + kind);
    }
    SqlCall timeout = SqlFaults.call(SqlFaults.STATEMENT_TIMEOUT);
    assertThat(timeout.sql()).isEqualTo("set local statement_timeout = 100");
    assertThat(timeout.more()).containsExactly("select pg_sleep(1)");
    assertThatThrownBy(() -> SqlDsl.injected("dead lock"))
        .hasMessageContaining("no injected kind \"dead lock\"");
  }

  @Test
  void aDeadlocksHalvesComeInTurnAndLockTheRowsInOppositeOrders() {
    InjectedSql injected = new InjectedSql(List.of(new InjectedFault("deadlock", 0.5)), 7);
    List<SqlCall> halves = new ArrayList<>();
    while (halves.size() < 4) {
      SqlCall call = injected.next();
      if (call != null) {
        halves.add(call);
      }
    }
    assertThat(halves).extracting(SqlCall::name).containsOnly("injected deadlock");
    // one sequence for the process: each half the next one's of the test's sequence
    for (int i = 0; i + 1 < halves.size(); i++) {
      assertThat((indexOf(halves.get(i)) + 1) % (2 * SqlFaults.DEADLOCK_PAIRS))
          .isEqualTo(indexOf(halves.get(i + 1)));
    }
    // a pair's halves take its two rows in opposite orders
    SqlCall first = SqlFaults.deadlockHalf(0);
    SqlCall second = SqlFaults.deadlockHalf(1);
    assertThat(first.sql()).endsWith("where id = 1");
    assertThat(first.more().get(1)).endsWith("where id = 2");
    assertThat(second.sql()).endsWith("where id = 2");
    assertThat(second.more().get(1)).endsWith("where id = 1");
    // the next pair takes the next two rows, so that it does not wait for the one before
    assertThat(SqlFaults.deadlockHalf(2).sql()).endsWith("where id = 3");
    assertThat(SqlFaults.deadlockHalf(3).sql()).endsWith("where id = 4");
    assertThat(SqlFaults.deadlockHalf(2 * SqlFaults.DEADLOCK_PAIRS)).isEqualTo(first);
    assertThat(InjectedSql.setUp(List.of(new InjectedFault("deadlock", 0.01))))
        .anySatisfy(
            sql -> assertThat(sql).startsWith("create table if not exists fusillade_deadlock"))
        .anySatisfy(sql -> assertThat(sql).contains("generate_series(1, 128)"));
  }

  @Test
  void theDrawIsSeededAndKeepsEachShare() {
    List<InjectedFault> faults =
        List.of(
            new InjectedFault("syntax error", 0.02), new InjectedFault("statement timeout", 0.01));
    List<String> first = draws(new InjectedSql(faults, 7), 20_000);
    assertThat(draws(new InjectedSql(faults, 7), 20_000)).isEqualTo(first);
    assertThat(draws(new InjectedSql(faults, 8), 20_000)).isNotEqualTo(first);
    long syntax = first.stream().filter("injected syntax error"::equals).count();
    long timeout = first.stream().filter("injected statement timeout"::equals).count();
    // 2% and 1% of 20,000, within five standard deviations
    assertThat(syntax).isBetween(400L - 99, 400L + 99);
    assertThat(timeout).isBetween(200L - 70, 200L + 70);
    assertThat(new InjectedSql(List.of(), 7).next()).isNull();
  }

  @Test
  void aWindowedKindIsSentOnlyWithinItsWindowFromTheFirstArrival() {
    List<InjectedFault> faults =
        List.of(
            new InjectedFault("syntax error", 0.1, Duration.ofSeconds(20), Duration.ofSeconds(10)));
    long[] now = {5_000_000_000L}; // the clock's origin is the first draw, not its zero
    InjectedSql windowed = new InjectedSql(faults, 7, () -> now[0]);
    InjectedSql always = new InjectedSql(List.of(new InjectedFault("syntax error", 0.1)), 7);
    int[] injectedPerSecond = new int[40];
    for (int second = 0; second < 40; second++) {
      for (int i = 0; i < 100; i++) {
        now[0] = 5_000_000_000L + second * 1_000_000_000L + i * 10_000_000L;
        SqlCall call = windowed.next();
        SqlCall unwindowed = always.next();
        if (call != null) {
          injectedPerSecond[second]++;
          // the same draw as without a window: the arrivals' kinds stay in step
          assertThat(unwindowed).isNotNull();
        }
      }
    }
    for (int second = 0; second < 40; second++) {
      if (second >= 20 && second < 30) {
        assertThat(injectedPerSecond[second]).as("second %d", second).isBetween(1, 30);
      } else {
        assertThat(injectedPerSecond[second]).as("second %d", second).isZero();
      }
    }
  }

  @Test
  void onlyAConstraintViolationNeedsItsTable() {
    assertThat(InjectedSql.setUp(List.of(new InjectedFault("syntax error", 0.01)))).isEmpty();
    assertThat(InjectedSql.setUp(List.of(new InjectedFault("constraint violation", 0.01))))
        .containsExactly(
            "create table if not exists fusillade_injected (id integer primary key)",
            "insert into fusillade_injected (id) values (1) on conflict do nothing");
  }

  /** Where a deadlock's half is in the test's sequence (its pairs in turn). */
  private static int indexOf(SqlCall half) {
    for (int n = 0; n < 2 * SqlFaults.DEADLOCK_PAIRS; n++) {
      if (SqlFaults.deadlockHalf(n).equals(half)) {
        return n;
      }
    }
    throw new AssertionError("not a deadlock's half: " + half);
  }

  private static List<String> draws(InjectedSql injected, int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      SqlCall call = injected.next();
      names.add(call == null ? "" : call.name());
    }
    return names;
  }
}
