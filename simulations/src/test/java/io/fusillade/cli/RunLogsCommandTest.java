package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run} dispatches on the workload: a {@code logs} section goes to the log runner
 * (its options are checked there), SQL keeps its own messages, and what cannot run is a one-line
 * user error (exit 2) before anything is forked. The run itself is tested by {@code LogsRunTest}.
 */
class RunLogsCommandTest {
  static final Path LOGS = Path.of("src/test/resources/workloads/web-logs.yml").toAbsolutePath();

  @TempDir Path dir;

  private Path file(String yaml) throws Exception {
    Path file = dir.resolve("w.yml");
    Files.writeString(file, yaml);
    return file;
  }

  @Test
  void theExampleIsAValidWorkload() {
    CliRun check = CliRun.of("workload", "check", LOGS.toString());
    assertThat(check.exitCode()).as(check.err()).isZero();
    assertThat(check.out())
        .contains(
            "logs: profile web, index web-logs (mapping web-logs, 1 shard, 0 replicas) on an"
                + " embedded OpenSearch",
            "ingest: 20000 docs by 2 users, bulks of 5000, time-to-searchable",
            "searches: status in, count by status, errors");
  }

  @Test
  void aWorkloadWithNeitherQueriesNorLogsKeepsTheSqlMessage() throws Exception {
    Path file =
        file(
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: integer
            """);
    CliRun result = CliRun.of("run", file.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo("fusillade: " + file + ": no queries, logs section or topics to run");
  }

  @Test
  void queriesAndLogsTogetherAreRejected() throws Exception {
    Path file =
        file(
            """
            queries:
              - sql: select 1
            logs:
              docs: 5000
            """);
    CliRun result = CliRun.of("run", file.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: "
                + file
                + ": has more than one of queries, a logs section and topics; fusillade run"
                + " runs one kind of workload: put them in separate files");
  }

  @Test
  void sqlOptionsAreRejectedForALogsWorkload() {
    CliRun result = CliRun.of("run", LOGS.toString(), "--users", "4");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo("fusillade: --users applies to SQL workloads; " + LOGS + " is a logs workload");
  }

  @Test
  void nodesAreForTheEmbeddedClusterAndFaultsForItsNodes() throws Exception {
    CliRun fourth =
        CliRun.of("run", LOGS.toString(), "--nodes", "3", "--fault", "at 2s kill opensearch 4");
    assertThat(fourth.exitCode()).isEqualTo(2);
    assertThat(fourth.err()).contains("opensearch 4");
    CliRun external =
        CliRun.of("run", LOGS.toString(), "--nodes", "3", "--url", "http://127.0.0.1:1");
    assertThat(external.exitCode()).isEqualTo(2);
    assertThat(external.err()).contains("--nodes starts the embedded OpenSearch");
    CliRun sql = CliRun.of("run", file("queries:\n  - sql: select 1\n").toString(), "--nodes", "3");
    assertThat(sql.exitCode()).isEqualTo(2);
    assertThat(sql.err())
        .contains("--nodes applies to logs workloads;")
        .contains("is a SQL workload");
  }

  @Test
  void rateAppliesOnlyToASectionWithARate() {
    CliRun result = CliRun.of("run", LOGS.toString(), "--rate", "5");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: --rate applies to a logs section with rate:, and this one ingests docs:"
                + " edit the file instead");
  }

  @Test
  void anUnreachableNodeIsNamedWithoutItsCredentials() throws Exception {
    Path file =
        file(
            """
            logs:
              rate: 1
              duration: 5s
            """);
    CliRun result = CliRun.of("run", file.toString(), "--url", "http://127.0.0.1:1", "--rate", "2");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).startsWith("fusillade: cannot connect to http://127.0.0.1:1: ");
    assertThat(result.err()).doesNotContain("\tat ");

    CliRun jdbc = CliRun.of("run", file.toString(), "--url", "jdbc:postgresql://u:hunter2@db/x");
    assertThat(jdbc.exitCode()).isEqualTo(2);
    assertThat(jdbc.err().strip())
        .isEqualTo("fusillade: --url: not an http(s) URL: jdbc:postgresql://***@db/x")
        .doesNotContain("hunter2");
  }

  @Test
  void aBrokenLogsSectionIsListedWithItsLine() throws Exception {
    Path file =
        file(
            """
            logs:
              docs: 5000
              rate: 2
            """);
    CliRun result = CliRun.of("run", file.toString());
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err())
        .contains(file + ":3:9 logs.rate: give one of docs, rate or steps, not docs and rate");
  }

  @Test
  void severalInjectorsShareOneSystemUnderTestAndATopicTestOneStart() throws Exception {
    // a topic test's injectors name their readers' group and their messages after the start
    Path topics = Path.of("src/test/resources/workloads/topics-demo.yml").toAbsolutePath();
    CliRun result =
        CliRun.of("run", topics.toString(), "--injectors", "3", "--injector-index", "1");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: --injectors 3 for "
                + topics
                + "'s topics needs --start-at: the injectors' readers share one group and their"
                + " messages one run, both named after the common start");
    String start = java.time.Instant.now().plusSeconds(60).toString();
    result =
        CliRun.of(
            "run",
            topics.toString(),
            "--injectors",
            "3",
            "--injector-index",
            "1",
            "--start-at",
            start);
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("the injectors share one system under test: give its --url");
    // each injector writes through writers of its own: fewer writers than injectors cannot split
    Path split =
        file(
            """
            topics:
              - name: t
                producers: 2
                consumers: 1
                rate: 10
                duration: 2s
            """);
    result =
        CliRun.of(
            "run",
            split.toString(),
            "--url",
            "localhost:9",
            "--injectors",
            "3",
            "--injector-index",
            "0",
            "--start-at",
            start);
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: "
                + split
                + ": topic t: producers: 2 cannot be shared by --injectors 3 (each injector writes"
                + " through its own): give producers: 3 or more");
    // a logs workload's injectors share one store: not an embedded one each
    result = CliRun.of("run", LOGS.toString(), "--injectors", "3", "--injector-index", "1");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err()).contains("the injectors share one system under test: give its --url");
  }

  @Test
  void sqlOptionsOnATopicWorkloadAreUserErrors() {
    Path topics = Path.of("src/test/resources/workloads/topics-demo.yml").toAbsolutePath();
    CliRun result = CliRun.of("run", topics.toString(), "--users", "3");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: --users applies to SQL workloads; " + topics + " is a topic workload");
  }

  @Test
  void aDiskSizeForTheEmbeddedBrokersIsRefusedWithAnExternalCluster() throws Exception {
    Path disk =
        file("kafka: {embedded_disk_size: 16MB}\ntopics: [{name: t, rate: 10, duration: 1s}]\n");
    CliRun result = CliRun.of("run", disk.toString(), "--url", "127.0.0.1:1");
    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.err().strip())
        .isEqualTo(
            "fusillade: --url: "
                + disk
                + "'s kafka.embedded_disk_size is for the embedded brokers; the disks of the"
                + " cluster at --url are its own (drop one of them)");
  }

  @Test
  void theStoreIsChosenBeforeAnythingStarts() throws Exception {
    CliRun bogus = CliRun.of("run", LOGS.toString(), "--target", "seqdbb");
    assertThat(bogus.exitCode()).isEqualTo(2);
    assertThat(bogus.err().strip())
        .isEqualTo(
            "fusillade: --target must be one of opensearch, elasticsearch, seq-db, not \"seqdbb\"");

    Path missing = dir.resolve("no-such-seq-db");
    CliRun noBinary =
        CliRun.of(
            "run", LOGS.toString(), "--target", "seq-db", "--seqdb-binary", missing.toString());
    assertThat(noBinary.exitCode()).isEqualTo(2);
    assertThat(noBinary.err().strip())
        .isEqualTo(
            "fusillade: --seqdb-binary "
                + missing
                + " is not an executable file; "
                + io.fusillade.local.SeqDbBinary.HOW_TO_BUILD);
    assertThat(noBinary.err().lines()).hasSize(1);

    Path sql = file("queries:\n  - sql: select 1\n");
    CliRun onSql = CliRun.of("run", sql.toString(), "--target", "seq-db");
    assertThat(onSql.exitCode()).isEqualTo(2);
    assertThat(onSql.err().strip())
        .isEqualTo("fusillade: --target applies to logs workloads; " + sql + " is a SQL workload");
  }

  @Test
  void aReadWithoutTheTargetsFormAndAFaultOfTheOtherStoreAreRefused() throws Exception {
    Path file =
        file(
            """
            logs:
              docs: 5000
              searches:
                - name: mine
                  iterations: 1
                  es: '{"query":{"match_all":{}}}'
            """);
    CliRun run = CliRun.of("run", file.toString(), "--target", "seq-db");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err().strip())
        .isEqualTo(
            "fusillade: "
                + file
                + ": search 'mine' has no seq-db form and the target is seq-db: add seq-db:"
                + " {query: ...}");

    CliRun fault =
        CliRun.of(
            "run", LOGS.toString(), "--target", "seq-db", "--fault", "at 1s kill opensearch 1");
    assertThat(fault.exitCode()).isEqualTo(2);
    assertThat(fault.err()).contains("opensearch");
  }

  @Test
  void aStudyNamesItsStoresAndStartsThemItself() {
    CliRun unknown = CliRun.of("study", "log-store");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err().strip())
        .isEqualTo(
            "fusillade: unknown study 'log-store' (one of log-stores, analytics, streaming), or a"
                + " YAML file");
    // a study starts the stores it compares: it has no --url to take
    CliRun url = CliRun.of("study", "log-stores", "--url", "http://127.0.0.1:9200");
    assertThat(url.exitCode()).isEqualTo(2);
    assertThat(url.err()).contains("Unknown options: '--url'");
    CliRun stores = CliRun.of("study", "log-stores", "--stores", "opensearch,seqbd");
    assertThat(stores.exitCode()).isEqualTo(2);
    assertThat(stores.err()).contains("--stores: unknown store 'seqbd'");
  }
}
