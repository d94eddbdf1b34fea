package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Which failures are tried again, as pgbench's --max-tries and --latency-limit decide it. */
class SqlTriesTest {
  @Test
  void serializationFailuresAndDeadlocksAreTriedAgainUpToTheMostTries() {
    SqlTries three = new SqlTries(3, 0);
    assertThat(three.again(1, "40001", 0)).isTrue();
    assertThat(three.again(2, "40P01", 0)).isTrue();
    assertThat(three.again(3, "40001", 0)).as("the third try was the last").isFalse();
  }

  @Test
  void anyOtherFailureIsFinal() {
    SqlTries many = new SqlTries(100, 0);
    assertThat(many.again(1, "23505", 0)).as("a duplicate key").isFalse();
    assertThat(many.again(1, "57014", 0)).as("a cancelled statement").isFalse();
    assertThat(many.again(1, null, 0)).as("a lost connection, a timeout").isFalse();
    assertThat(SqlTries.ONCE.again(1, "40001", 0)).isFalse();
  }

  @Test
  void noTryStartsAfterTheLatencyLimit() {
    SqlTries bounded = new SqlTries(10, 1_000);
    assertThat(bounded.again(1, "40001", 999)).isTrue();
    assertThat(bounded.again(1, "40001", 1_000)).isFalse();
    assertThat(bounded.again(1, "40001", 5_000)).isFalse();
  }

  @Test
  void atLeastOneTry() {
    assertThatThrownBy(() -> new SqlTries(0, 0)).hasMessageContaining("at least 1");
  }
}
