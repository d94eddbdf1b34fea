package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The classifier on the reason strings the clients really produce (copied from SqlClient,
 * SqlOutcome, PgClient/PgConnection/PgLoop, LogsClient, BulkResult, KafkaErrors, BulkAction,
 * ResponseReporter and HikariCP), so that a client rewording its reasons shows up here.
 */
class FailureClassTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // injector: never sent, never built, out of connections
        "injector queue full|INJECTOR",
        "injector shut down|INJECTOR",
        "request not built: no attribute 'id'|INJECTOR",
        "producer buffer full (buffer.memory, max.block.ms)|INJECTOR",
        "HikariPool-1 - Connection is not available, request timed out after 10000ms.|INJECTOR",
        "SQLTransientConnectionException: HikariPool-1 - Connection is not available, request"
            + " timed out after 10000ms.|INJECTOR",
        "request not started on time|INJECTOR",
        // network: refused, reset, timeouts, lost connections
        "connection refused (http://localhost:9200)|NETWORK",
        "connect timeout (http://localhost:9200)|NETWORK",
        "request timeout|NETWORK",
        "timed out after 60 s|NETWORK",
        "timed out after 250 ms|NETWORK",
        "cannot connect to 127.0.0.1:5432: Connection refused|NETWORK",
        "cannot connect to 127.0.0.1:5432: no answer within 10000 ms|NETWORK",
        "connection to 127.0.0.1:5432 closed by the server|NETWORK",
        "connection to 127.0.0.1:5432 failed: Connection reset by peer|NETWORK",
        "SQLState 08001: Connection to localhost:5432 refused.|NETWORK",
        "SQLState 08006: An I/O error occurred while sending to the backend.|NETWORK",
        "SQLState 08003: HikariPool-1 - Connection is not available, request timed out|NETWORK",
        "delivery timeout: not acknowledged within delivery.timeout.ms|NETWORK",
        "TimeoutException: Topic t not present in metadata after N ms.|NETWORK",
        "NetworkException: Disconnected from node N|NETWORK",
        "ConnectException (http://localhost:9200)|NETWORK",
        "network: anything|NETWORK",
        // server: the system answered with an error
        "SQLState 23505: ERROR: duplicate key value violates unique constraint|SERVER",
        "SQLState 57014: ERROR: canceling statement due to statement timeout|SERVER",
        "SQLState 57P01: FATAL: terminating connection due to administrator command|SERVER",
        "SQLState 42P01: ERROR: relation \"x\" does not exist|SERVER",
        "HTTP 429 es_rejected_execution_exception|SERVER",
        "HTTP 504|SERVER",
        "bulk items failed: mapper_parsing_exception, version_conflict_engine_exception|SERVER",
        "NotLeaderOrFollowerException: This server is not the leader for that partition.|SERVER",
        "RecordTooLargeException: The message is N bytes|SERVER",
        "check failed: expected 1 rows, got 0|SERVER",
        "server: connection refused by policy|SERVER",
        // old or unknown reasons: the server's
        "(other reasons)|SERVER",
        "(no reason given)|SERVER",
        "boom|SERVER",
      })
  void classifiesTheReasonsTheClientsProduce(String reason, FailureClass expected) {
    assertThat(FailureClass.of(reason)).isEqualTo(expected);
  }

  @Test
  void noReasonIsTheServers() {
    assertThat(FailureClass.of(null)).isEqualTo(FailureClass.SERVER);
    assertThat(FailureClass.of("  ")).isEqualTo(FailureClass.SERVER);
  }

  @Test
  void countsSumReasonsByClassWithEveryClassPresent() {
    Map<String, Long> errors = new LinkedHashMap<>();
    errors.put("injector queue full", 991L);
    errors.put("connection refused (http://a:9200)", 7L);
    errors.put("request timeout", 3L);
    errors.put("SQLState 23505: duplicate", 1L);
    assertThat(FailureClass.counts(errors))
        .containsExactly(
            Map.entry(FailureClass.SERVER, 1L),
            Map.entry(FailureClass.NETWORK, 10L),
            Map.entry(FailureClass.INJECTOR, 991L));
    assertThat(FailureClass.counts(Map.of()).values()).containsOnly(0L);
  }
}
