package io.fusillade.gatling.sql;

import static io.fusillade.gatling.sql.SqlDsl.column;
import static io.fusillade.gatling.sql.SqlDsl.rowCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.gatling.TestSessions;
import io.fusillade.sql.SqlCheck;
import io.fusillade.sql.SqlOutcome;
import io.fusillade.sql.SqlResult;
import io.gatling.core.session.Session;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Column checks and what they save in the session, without a database. */
class SqlColumnCheckTest {

  private static SqlResult row(String column, Object value) {
    Map<String, Object> row = new HashMap<>();
    row.put(column, value);
    return new SqlResult(1, row);
  }

  @Test
  void aColumnCheckAsksForAFirstRow() {
    assertThat(column("ID").columns()).containsExactly("id");
    assertThat(column("id").verify(row("id", 1))).isNull();
    assertThat(column("id").verify(new SqlResult(0, Map.of())))
        .isEqualTo("expected a row with column id, got no row");
  }

  @Test
  void isComparesAsTextWithTheCoreChecksMessages() {
    assertThat(column("status").is("paid").verify(row("status", "paid"))).isNull();
    assertThat(column("n", 42).verify(row("n", 42L))).isNull();
    assertThat(column("status", "paid").verify(row("status", "new")))
        .isEqualTo(SqlCheck.column("status", "paid").verify(row("status", "new")))
        .isEqualTo("expected status = paid, got new");
  }

  @Test
  void saveAsAndIsReturnNewChecks() {
    SqlColumnCheck any = column("id");
    SqlColumnCheck saving = any.saveAs("orderId");
    assertThat(saving).isNotSameAs(any);
    assertThat(any.savedAs()).isNull();
    assertThat(saving.savedAs()).isEqualTo("orderId");
    assertThat(saving.is(1)).isNotSameAs(saving);
    assertThat(saving.is(1).savedAs()).isEqualTo("orderId");
    assertThatThrownBy(() -> any.saveAs(" ")).hasMessage("saveAs needs an attribute name");
    assertThatThrownBy(() -> column(" ")).hasMessage("a column check needs a column name");
  }

  @Test
  void anOkRequestSavesItsColumnsInTheSession() {
    List<SqlCheck> checks = List.of(rowCount(1), column("id").saveAs("orderId"));
    SavedColumns saved = SavedColumns.of(checks);
    SavedColumns.Capture capture = saved.capture(checks);
    assertThat(capture.checks()).hasSize(3).endsWith(capture);

    SqlOutcome outcome = SqlOutcome.checked(row("id", 17), capture.checks());
    assertThat(outcome.reason()).isNull();
    Session after = capture.save(TestSessions.empty());
    assertThat(after.attributes().get("orderId").get()).isEqualTo(17);
  }

  @Test
  void theCaptureRunsOnlyWhenTheOtherChecksPass() {
    List<SqlCheck> checks = List.of(rowCount(2), column("id").saveAs("orderId"));
    SavedColumns.Capture capture = SavedColumns.of(checks).capture(checks);
    SqlOutcome outcome = SqlOutcome.checked(row("id", 17), capture.checks());
    assertThat(outcome.reason()).isEqualTo("check failed: expected 2 rows, got 1");
  }

  @Test
  void aNullRemovesTheAttribute() {
    Session before = TestSessions.with("orderId", 1);
    SavedColumns.Capture nulls =
        SavedColumns.of(List.of(column("id").saveAs("orderId"))).capture(List.of());
    nulls.verify(row("id", null));
    assertThat(nulls.save(before).attributes().contains("orderId")).isFalse();
  }

  @Test
  void checksThatSaveNothingNeedNoCapture() {
    assertThat(SavedColumns.of(List.of(rowCount(1), column("id"))).isEmpty()).isTrue();
  }
}
