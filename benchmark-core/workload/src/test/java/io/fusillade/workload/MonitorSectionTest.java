package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.system.ServerTarget;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code monitor} list: the servers whose metrics a run records. */
class MonitorSectionTest {
  private static LoadResult parse(String yaml) {
    return WorkloadLoader.parse("w.yml", yaml, Map.of("PROM_PASSWORD", "s3cret")::get);
  }

  private static List<String> problems(String yaml) {
    return parse(yaml).problems().stream().map(Problem::toString).toList();
  }

  @Test
  void eachServerHasItsNameUrlFilesystemAndMetrics() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                monitor:
                  - name: db
                    url: http://db1:9100/metrics
                    filesystem: /var/lib/postgresql
                    metrics: [pg_stat_database_xact_commit, pg_up]
                  - name: kafka-1
                    url: http://admin:${env:PROM_PASSWORD}@k1:7071/metrics
                """)
            .orThrow();
    assertThat(w.monitor())
        .containsExactly(
            ServerTarget.of("db", "http://db1:9100/metrics")
                .filesystem("/var/lib/postgresql")
                .metrics("pg_stat_database_xact_commit", "pg_up"),
            ServerTarget.of("kafka-1", "http://admin:s3cret@k1:7071/metrics"));
    assertThat(w.monitor().get(1).shownUrl()).isEqualTo("http://k1:7071/metrics");
    assertThat(parse("queries:\n  - sql: select 1\n").orThrow().monitor()).isEmpty();
  }

  @Test
  void aWrongServerIsNamedByItsLineAndKey() {
    assertThat(problems("queries:\n  - sql: select 1\nmonitor:\n  - name: db\n"))
        .singleElement()
        .asString()
        .contains("monitor[0]")
        .contains("url");
    assertThat(
            problems(
                "queries:\n  - sql: select 1\nmonitor:\n  - name: db\n    url: ftp://u:pw@x/m\n"))
        .singleElement()
        .asString()
        .startsWith("w.yml:5:10 monitor[0].url: server db: \"ftp://x/m\" is not an http(s) URL");
    assertThat(
            problems("queries:\n  - sql: select 1\nmonitor:\n  - name: d.b\n    url: http://x/m\n"))
        .singleElement()
        .asString()
        .startsWith("w.yml:4:11 monitor[0].name: server name \"d.b\" must be letters");
    assertThat(
            problems(
                "queries:\n  - sql: select 1\nmonitor:\n  - {name: a, url: 'http://x/m',"
                    + " metrics: [bad-name]}\n"))
        .singleElement()
        .asString()
        .contains("monitor[0].metrics: server a: \"bad-name\" is not a Prometheus metric name");
    assertThat(
            problems(
                "queries:\n  - sql: select 1\nmonitor:\n  - {name: a, url: 'http://x/m'}\n"
                    + "  - {name: a, url: 'http://y/m'}\n"))
        .singleElement()
        .asString()
        .contains("two servers are named \"a\"");
    assertThat(
            problems(
                "queries:\n  - sql: select 1\nmonitor:\n  - {name: a, url: 'http://x/m', port: 1}\n"))
        .singleElement()
        .asString()
        .contains("port");
  }

  @Test
  void aLogsSourceHasItsFileAndNamedPatterns() {
    Workload w =
        parse(
                """
                queries:
                  - sql: select 1
                monitor:
                  - name: postgres
                    logs: embedded
                    patterns:
                      warning: "WARNING|could not send"
                      error: ERROR
                  - name: db
                    url: http://db1:9100/metrics
                """)
            .orThrow();
    assertThat(w.monitor()).hasSize(1);
    assertThat(w.monitorLogs()).hasSize(1);
    LogMonitor logs = w.monitorLogs().get(0);
    assertThat(logs.embedded()).isTrue();
    assertThat(logs.patterns())
        .containsExactly(
            Map.entry("warning", "WARNING|could not send"), Map.entry("error", "ERROR"));
    assertThat(
            problems(
                "queries:\n  - sql: select 1\nmonitor:\n  - name: pg\n    logs: /var/log/pg.log\n"
                    + "    patterns: {bad: \"(unclosed\"}\n"))
        .singleElement()
        .asString()
        .contains("monitor[0].patterns")
        .contains("pattern bad \"(unclosed\" is not a regular expression");
    assertThat(problems("queries:\n  - sql: select 1\nmonitor:\n  - name: pg\n    logs: /x.log\n"))
        .singleElement()
        .asString()
        .contains("patterns");
  }
}
