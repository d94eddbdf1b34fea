package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.FailureClass;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The SQL clients' KO reasons name who failed (see {@link FailureClass}). */
class SqlReasonsTest {

  private static FailureClass classOf(SqlOutcome outcome) {
    return FailureClass.of(outcome.reason());
  }

  @Test
  void aStatementTheDatabaseRejectedIsTheServers() {
    assertThat(classOf(SqlOutcome.error("23505", "ERROR: duplicate key")))
        .isEqualTo(FailureClass.SERVER);
    assertThat(
            classOf(
                SqlOutcome.error("57014", "ERROR: canceling statement due to statement timeout")))
        .isEqualTo(FailureClass.SERVER);
    assertThat(classOf(SqlOutcome.error("57P01", "FATAL: terminating connection")))
        .isEqualTo(FailureClass.SERVER);
  }

  @Test
  void connectionErrorsAndTimeoutsAreTheNetworks() {
    assertThat(classOf(SqlOutcome.error("08001", "Connection to localhost:5432 refused.")))
        .isEqualTo(FailureClass.NETWORK);
    assertThat(classOf(SqlOutcome.timedOut(Duration.ofSeconds(60))))
        .isEqualTo(FailureClass.NETWORK);
    assertThat(classOf(SqlOutcome.timedOut(Duration.ofMillis(250))))
        .isEqualTo(FailureClass.NETWORK);
  }

  @Test
  void aFullQueueOrAnExhaustedPoolIsTheInjectors() {
    assertThat(FailureClass.of(SqlClient.QUEUE_FULL)).isEqualTo(FailureClass.INJECTOR);
    assertThat(FailureClass.of("injector shut down")).isEqualTo(FailureClass.INJECTOR);
    // HikariCP's pool timeout without an underlying connection error: the pool is too small
    assertThat(
            classOf(
                SqlOutcome.error(
                    null,
                    "HikariPool-1 - Connection is not available, request timed out after 10000ms.")))
        .isEqualTo(FailureClass.INJECTOR);
  }
}
