package io.fusillade.gatling.sql;

import static io.fusillade.gatling.sql.SqlDsl.column;
import static io.fusillade.gatling.sql.SqlDsl.rowCount;
import static io.fusillade.gatling.sql.SqlDsl.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.check.Checks;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlResult;
import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SQL extractors on results as the client hands them to checks (the client's reading of columns
 * by name and position is tested against PostgreSQL in the sql module's client tests).
 */
class SqlChecksTest {
  private static final Session SESSION = Session$.MODULE$.apply("test", 1L, null);

  private static SqlResult row(Object... keysAndValues) {
    Map<String, Object> row = new HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return new SqlResult(1, row);
  }

  private static SqlOutcome run(SqlResult result, SqlSessionChecks checks) {
    return SqlOutcome.checked(result, List.of(checks));
  }

  @Test
  void rowCountIsTheRowsReadOrAffected() {
    var checks = new SqlSessionChecks(checks(rowCount().is(1), rowCount().gte(1).lte(50)), SESSION);
    assertThat(run(row(), checks).reason()).isNull();
    assertThat(
            run(new SqlResult(3, Map.of()), new SqlSessionChecks(checks(rowCount().is(1)), SESSION))
                .reason())
        .isEqualTo("check failed: rowCount.is(1): found 3");
  }

  @Test
  void aColumnByNameAsksTheClientForItInLowerCase() {
    var checks = new SqlSessionChecks(checks(column("ID").is(7)), SESSION);
    assertThat(checks.columns()).containsExactly("id");
    assertThat(run(row("id", 7L), checks).reason()).isNull();
    assertThat(run(new SqlResult(0, Map.of()), checks).reason())
        .isEqualTo("check failed: column(id).is(7): found nothing");
    assertThatThrownBy(() -> column(" ")).hasMessage("a column check needs a column name");
  }

  @Test
  void aColumnByPositionCountsFromOne() {
    var checks = new SqlSessionChecks(checks(column(2).is("item 7")), SESSION);
    assertThat(checks.columns()).containsExactly(SqlResult.columnAt(2));
    assertThat(run(row(SqlResult.columnAt(2), "item 7"), checks).reason()).isNull();
    assertThatThrownBy(() -> column(0)).hasMessage("columns count from 1, got 0");
  }

  @Test
  void anOkRequestSavesItsColumnsInTheSession() {
    var checks =
        new SqlSessionChecks(checks(rowCount().is(1), column("id").saveAs("orderId")), SESSION);
    assertThat(run(row("id", 17), checks).reason()).isNull();
    assertThat(checks.save(SESSION).attributes().get("orderId").get()).isEqualTo(17);
  }

  @Test
  void rowsAreEveryRowAndAskTheClientForThemAll() {
    List<Map<String, Object>> read =
        List.of(Map.of("id", 1, "name", "a"), Map.of("id", 2, "name", "b"));
    SqlResult result = new SqlResult(2, Map.of(), read);
    var checks =
        new SqlSessionChecks(
            checks(
                rows().transform(List::size).is(2),
                rows().transform(r -> r.get(1).get("name")).saveAs("second")),
            SESSION);
    assertThat(checks.columns()).containsExactly(SqlResult.ALL_ROWS);
    assertThat(run(result, checks).reason()).isNull();
    assertThat(checks.save(SESSION).attributes().get("second").get()).isEqualTo("b");
    var none = new SqlSessionChecks(checks(rows().transform(List::size).gte(1)), SESSION);
    assertThat(run(new SqlResult(0, Map.of()), none).reason())
        .isEqualTo("check failed: rows.transform.gte(1): found 0");
  }

  @Test
  void aStatementsChecksAreBoundToTheSessionOnlyWhenItHasSome() {
    SqlStatement none = SqlDsl.sql("q").query("select 1").statement();
    assertThat(none.checks()).isEmpty();
    SqlStatement some =
        SqlDsl.sql("q")
            .query("select 1")
            .check(rowCount().is(1))
            .checkIf("#{audit}")
            .then(column(1))
            .statement();
    assertThat(some.checks()).hasSize(2);
  }

  @SafeVarargs
  private static Checks<SqlResult> checks(
      io.fusillade.gatling.check.Check<SqlResult, ?>... checks) {
    return Checks.<SqlResult>none().and(List.of(checks));
  }
}
