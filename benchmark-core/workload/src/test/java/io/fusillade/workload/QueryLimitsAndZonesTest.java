package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A query's own {@code timeout:} and {@code max_tries:}, and the zones of a connection's nodes:
 * read as the run uses them, wrong values named with their file, line and field.
 */
class QueryLimitsAndZonesTest {
  private static LoadResult parse(String text) {
    return WorkloadLoader.parse("w.yml", text, name -> null);
  }

  @Test
  void aQueryHasItsOwnTimeoutAndTries() {
    Workload workload =
        parse(
                """
                queries:
                  - name: long
                    sql: select pg_sleep(75)
                    timeout: 10m
                  - name: picostress
                    sql: select 1
                    timeout: 3.5
                  - name: transfer
                    sql: update accounts set n = n + 1 where id = 1
                    max_tries: 5
                  - name: plain
                    sql: select 2
                """)
            .orThrow();
    assertThat(workload.queries())
        .extracting(Query::limits)
        .containsExactly(
            new QueryLimits(Duration.ofMinutes(10), 0),
            new QueryLimits(Duration.ofMillis(3500), 0),
            new QueryLimits(null, 5),
            QueryLimits.NONE);
  }

  @Test
  void aWrongTimeoutOrTriesIsNamedWithItsLine() {
    LoadResult result =
        parse(
            """
            queries:
              - sql: select 1
                timeout: soon
              - sql: select 2
                timeout: 0s
              - sql: select 3
                max_tries: 0
            """);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:3:14 queries[0].timeout: expected a duration such as 90s, 10m or 500ms (or"
                + " seconds: 3.5), got soon",
            "w.yml:5:14 queries[1].timeout: timeout must be > 0, got 0s",
            "w.yml:7:16 queries[2].max_tries: max_tries must be between 1 and 1000000, got 0");
  }

  @Test
  void nodesCarryTheirZones() {
    Workload workload =
        parse(
                """
                connection:
                  urls:
                    - {url: 'jdbc:postgresql://db1:5432/app', zone: eu-1}
                    - 'jdbc:postgresql://db2:5432/app'
                  replicas:
                    - {url: 'jdbc:postgresql://db3:5432/app', zone: us-1}
                queries:
                  - sql: select 1
                """)
            .orThrow();
    Connection connection = workload.connection().orElseThrow();
    assertThat(connection.urls())
        .containsExactly("jdbc:postgresql://db1:5432/app", "jdbc:postgresql://db2:5432/app");
    assertThat(connection.replicas()).containsExactly("jdbc:postgresql://db3:5432/app");
    assertThat(connection.zones()).containsExactly("eu-1", "", "us-1");

    Connection plain =
        parse(
                """
                connection: {urls: ['jdbc:postgresql://db1:5432/app']}
                queries: [{sql: select 1}]
                """)
            .orThrow()
            .connection()
            .orElseThrow();
    assertThat(plain.zones()).as("no node has a zone").isEmpty();
  }

  @Test
  void aNodeWithoutUrlOrWithAnUnknownKeyIsAProblem() {
    LoadResult result =
        parse(
            """
            connection:
              urls:
                - {zone: eu-1}
                - {url: 'jdbc:postgresql://db1:5432/app', region: eu}
            queries: [{sql: select 1}]
            """);
    assertThat(result.problems())
        .extracting(Problem::toString)
        .anySatisfy(p -> assertThat(p).contains("connection.urls[0]").contains("url"))
        .anySatisfy(p -> assertThat(p).contains("unknown key 'region'"));
  }
}
