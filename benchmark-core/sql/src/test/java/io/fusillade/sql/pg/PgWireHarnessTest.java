package io.fusillade.sql.pg;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.Status;
import io.fusillade.sql.SqlOutcome;
import org.junit.jupiter.api.Test;

/** The benchmark's harness decodes what it measures: each point select ends OK with its row. */
class PgWireHarnessTest {
  @Test
  void eachPointSelectEndsWithItsRowAndTheCheckedOnePassesItsCheck() {
    try (PgWireHarness wire = new PgWireHarness()) {
      for (int i = 0; i < 3; i++) {
        SqlOutcome plain = wire.pointSelect();
        assertThat(plain.status()).as(String.valueOf(plain)).isEqualTo(Status.OK);
        assertThat(plain.rows()).isEqualTo(1);
        SqlOutcome checked = wire.pointSelectChecked();
        assertThat(checked.status()).as(String.valueOf(checked)).isEqualTo(Status.OK);
        assertThat(checked.rows()).isEqualTo(1);
      }
    }
  }
}
