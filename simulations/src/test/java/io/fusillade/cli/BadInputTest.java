package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestChannel;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunOptions;
import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input given to the real {@code fusillade} entry point, as a user would give it: malformed
 * workloads, wrong values, CLI misuse, garbage run directories. Every case must be a user error
 * (exit 2) with one clear line naming the file, field or argument, and no stack trace. No case
 * reaches a database or forks Gatling: each fails while reading its input (the {@code --url} given
 * to {@code run} points at a closed port, as a safety net that would show as a wrong message).
 */
class BadInputTest {
  /** A password that must never be printed. */
  private static final String SECRET = "s3cr3t-pw";

  /** A database URL nothing listens on, with a password in it. */
  private static final String NOWHERE =
      "jdbc:postgresql://127.0.0.1:1/app?user=app&password=" + SECRET;

  private static final String TABLE =
      """
      tables_schema:
        - name: cars
          row_count: 10
          columns:
            - name: id
              type: Integer
              range: [0, 100]
      """;

  private static final String QUERY =
      """
      queries:
        - sql: select * from cars where id = $1::integer
          params:
            - type: Integer
              range: [0, 10]
      """;

  /** A topic workload: its cluster is --url, the file's kafka section, or embedded. */
  private static final String TOPICS =
      """
      topics:
        - name: events
          rate: 10
          duration: 5s
      """;

  private static Path base;

  @BeforeAll
  static void files(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException, InterruptedException {
    base = dir;
    write("good.yml", TABLE + QUERY);
    write("tabs.yml", TABLE + QUERY.replace("  - sql", "\t- sql"));
    write("unclosed.yml", TABLE + "queries:\n  - sql: \"select 1\n");
    Files.write(
        base.resolve("binary.yml"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1, 2, 3, (byte) 0x80});
    write("empty.yml", "");
    Files.createDirectories(base.resolve("a-directory.yml"));
    write("list.yml", "- just\n- a list\n");
    write("rows-text.yml", TABLE.replace("row_count: 10", "row_count: ten") + QUERY);
    write("rows-negative.yml", TABLE.replace("row_count: 10", "row_count: -5") + QUERY);
    write("range-text.yml", TABLE.replace("range: [0, 100]", "range: zero") + QUERY);
    write("rate-zero.yml", TABLE + QUERY + "load: {mode: rate, rate: 0, duration: 10s}\n");
    write("rate-negative.yml", TABLE + QUERY + "load: {mode: rate, rate: -5, duration: 10s}\n");
    write("rate-text.yml", TABLE + QUERY + "load: {mode: rate, rate: fast, duration: 10s}\n");
    write("duration-zero.yml", TABLE + QUERY + "load: {mode: rate, rate: 10, duration: 0s}\n");
    write("duration-bad.yml", TABLE + QUERY + "load: {mode: rate, rate: 10, duration: 10x}\n");
    write("users-zero.yml", TABLE + QUERY + "load: {mode: queue, users: 0}\n");
    write("mode-bad.yml", TABLE + QUERY + "load: {mode: fast}\n");
    write("typo-key.yml", TABLE.replace("row_count", "row_cout") + QUERY);
    write("typo-top.yml", TABLE + QUERY + "lood: {mode: rate}\n");
    write("users-in-rate.yml", TABLE + QUERY + "load: {mode: rate, rate: 10, users: 4}\n");
    write(
        "stages-and-rate.yml",
        TABLE + QUERY + "load:\n  rate: 10\n  stages:\n    - {hold: 10, for: 10s}\n");
    write("bad-check.yml", TABLE + QUERY + "checks:\n  - p99 < fast\n");
    write("no-queries.yml", TABLE);
    write(
        "logs.yml",
        "logs:\n  profile: web\n  rate: 1\n  duration: 5s\n  urls: [http://127.0.0.1:1]\n");
    new ProcessBuilder("mkfifo", base.resolve("a-fifo.yml").toString()).start().waitFor();
    write("topics.yml", TOPICS);
    write("topics-kafka-nowhere.yml", "kafka: {bootstrap_servers: '127.0.0.1:59998'}\n" + TOPICS);

    Path runs = Files.createDirectories(base.resolve("runs"));
    Files.createDirectories(runs.resolve("empty"));
    Files.writeString(runs.resolve("a-file"), "not a run\n");
    Path truncated = record(runs.resolve("truncated-json"));
    String manifest = Files.readString(truncated.resolve(RunFiles.MANIFEST));
    Files.writeString(
        truncated.resolve(RunFiles.MANIFEST), manifest.substring(0, manifest.length() / 2));
    Files.writeString(
        record(runs.resolve("not-json")).resolve(RunFiles.MANIFEST), "hello, not json\n");
    Files.write(
        record(runs.resolve("garbage-hlog")).resolve(RunFiles.HISTOGRAMS),
        "#[StartTime: 1]\n0.1,0.2,0.3,HISTFAAAAgarbage==\n@@@@\n".getBytes(StandardCharsets.UTF_8));
    record(runs.resolve("good"));
  }

  /** One completed run under {@code dir}: its run directory. */
  private static Path record(Path dir) throws IOException {
    try (RunRecorder run =
        RunRecorder.open(RunOptions.of("io.example.BadInput").withBaseDirectory(dir))) {
      RequestChannel q = run.request("q");
      for (int i = 0; i < 100; i++) {
        q.sent();
        q.ok(1_000_000L, 2_000_000L);
      }
    }
    try (Stream<Path> children = Files.list(dir)) {
      return children.findFirst().orElseThrow();
    }
  }

  private static void write(String name, String text) throws IOException {
    Files.writeString(base.resolve(name), text);
  }

  /**
   * The table: a case's name, its arguments ({@code @name} is a file or directory under the test's
   * directory, {@code @runs/name} a run directory), the exit code and a fragment of the message.
   */
  static Stream<Arguments> cases() {
    return Stream.of(
        // malformed YAML
        c("tab indentation", 2, "tabs.yml:9:1: not valid YAML", "workload", "check", "@tabs.yml"),
        c(
            "unclosed quote",
            2,
            "unclosed.yml:10:1: not valid YAML",
            "workload",
            "check",
            "@unclosed.yml"),
        c(
            "binary bytes",
            2,
            "binary.yml:1:1: not valid YAML: the file is not UTF-8",
            "workload",
            "check",
            "@binary.yml"),
        c("empty file", 2, "empty.yml:1:1: the file is empty", "workload", "check", "@empty.yml"),
        c(
            "a directory",
            2,
            "a-directory.yml:1:1: cannot read the file: it is a directory",
            "workload",
            "check",
            "@a-directory.yml"),
        c(
            "a missing file",
            2,
            "missing.yml:1:1: cannot read the file: no such file",
            "workload",
            "check",
            "@missing.yml"),
        c("a YAML list, not a map", 2, "list.yml", "workload", "check", "@list.yml"),
        c("run: a missing file", 2, "missing.yml", "run", "@missing.yml", "--url", NOWHERE),
        c("run: tab indentation", 2, "tabs.yml:", "run", "@tabs.yml", "--url", NOWHERE),
        c("run: empty file", 2, "empty.yml", "run", "@empty.yml", "--url", NOWHERE),
        c(
            "sample: binary bytes",
            2,
            "binary.yml",
            "workload",
            "sample",
            "@binary.yml",
            "--table",
            "cars"),
        c("schema: a directory", 2, "a-directory.yml", "schema", "up", "@a-directory.yml"),
        // wrong types and values
        c("row_count as text", 2, "row_count", "workload", "check", "@rows-text.yml"),
        c("negative row_count", 2, "row_count", "workload", "check", "@rows-negative.yml"),
        c("range as text", 2, "range", "workload", "check", "@range-text.yml"),
        c("rate as text", 2, "rate", "workload", "check", "@rate-text.yml"),
        c("zero rate", 2, "rate", "workload", "check", "@rate-zero.yml"),
        c("negative rate", 2, "rate", "workload", "check", "@rate-negative.yml"),
        c("zero duration", 2, "duration", "workload", "check", "@duration-zero.yml"),
        c("bad duration", 2, "duration", "workload", "check", "@duration-bad.yml"),
        c("zero users", 2, "users", "workload", "check", "@users-zero.yml"),
        c("unknown load mode", 2, "mode", "workload", "check", "@mode-bad.yml"),
        c("bad check", 2, "bad-check.yml:14:5 checks[0]", "workload", "check", "@bad-check.yml"),
        c("run: bad check", 2, "bad-check.yml:14:5", "run", "@bad-check.yml", "--url", NOWHERE),
        // unknown keys, with a suggestion
        c(
            "misspelt column key",
            2,
            "did you mean 'row_count'",
            "workload",
            "check",
            "@typo-key.yml"),
        c("misspelt top-level key", 2, "did you mean 'load'", "workload", "check", "@typo-top.yml"),
        // contradictory settings
        c("users in rate mode", 2, "users", "workload", "check", "@users-in-rate.yml"),
        c("stages and rate", 2, "stages", "workload", "check", "@stages-and-rate.yml"),
        c("run: no queries", 2, "no queries", "run", "@no-queries.yml", "--url", NOWHERE),
        c(
            "run: --replicas of a server given by --url",
            2,
            "--replicas starts replicas of the embedded PostgreSQL; for a server given by --url",
            "run",
            "@good.yml",
            "--url",
            NOWHERE,
            "--replicas",
            "1"),
        c(
            "run: --replica-url without --url",
            2,
            "--replica-url names replicas of the --url nodes",
            "run",
            "@good.yml",
            "--replica-url",
            NOWHERE),
        c(
            "run: --replicas out of range",
            2,
            "--replicas must be 0 to 8, got 9",
            "run",
            "@good.yml",
            "--replicas",
            "9"),
        // CLI misuse
        c("unknown flag", 2, "Unknown options: '--rat'", "run", "@good.yml", "--rat", "5"),
        // did you mean, on every command: a misspelling, another tool's name, the closest
        c("run: --rps", 2, "Did you mean --rate?", "run", "@good.yml", "--rps", "100"),
        c("run: --vus", 2, "Did you mean --users?", "run", "@good.yml", "--vus", "10"),
        c("run: --duraton", 2, "Did you mean --duration?", "run", "@good.yml", "--duraton", "5s"),
        c("summary: --hepl", 2, "Did you mean --help?", "summary", "@runs/good", "--hepl"),
        c("report: --ouptut", 2, "Did you mean --output?", "report", "@runs/good", "--ouptut", "x"),
        c(
            "compare: --treshold",
            2,
            "Did you mean --threshold?",
            "compare",
            "--treshold",
            "5%",
            "--baseline",
            "@runs/good",
            "--candidate",
            "@runs/good"),
        c("unknown top-level flag", 2, "Unknown option", "--verbose"),
        c("unknown command", 2, "sumary", "sumary", "x"),
        c("bad --duration", 2, "10x", "run", "@good.yml", "--duration", "10x", "--url", NOWHERE),
        c(
            "zero --duration",
            2,
            "--duration",
            "run",
            "@good.yml",
            "--duration",
            "0s",
            "--url",
            NOWHERE),
        c("negative --rate", 2, "--rate", "run", "@good.yml", "--rate", "-5", "--url", NOWHERE),
        c("zero --rate", 2, "--rate", "run", "@good.yml", "--rate", "0", "--url", NOWHERE),
        c("--rate as text", 2, "--rate", "run", "@good.yml", "--rate", "fast"),
        c(
            "zero --users",
            2,
            "--users",
            "run",
            "@good.yml",
            "--mode",
            "queue",
            "--users",
            "0",
            "--url",
            NOWHERE),
        c("unknown --engine", 2, "--engine", "run", "@good.yml", "--engine", "odbc"),
        c("unknown --mode", 2, "--mode", "run", "@good.yml", "--mode", "fast"),
        c("bad --check", 2, "--check", "run", "@good.yml", "--check", "p99 <", "--url", NOWHERE),
        c("missing WORKLOAD", 2, "WORKLOAD", "run"),
        c(
            "bad --fault",
            2,
            "--fault: fault 'kill broker 1'",
            "run",
            "@good.yml",
            "--fault",
            "kill broker 1"),
        c(
            "--fault on a server the run does not start",
            2,
            "fault 'at 5s kill broker 1': the run has no local 'broker' server; it has postgres 1",
            "run",
            "@good.yml",
            "--fault",
            "at 5s kill broker 1"),
        c(
            "--fault on a local server when the server is given",
            2,
            "the run has no local 'postgres' server (it has none: for an external system",
            "run",
            "@good.yml",
            "--fault",
            "at 5s pause postgres for 1s",
            "--url",
            NOWHERE),
        c("compare without --candidate", 2, "--candidate", "compare", "--baseline", "@runs/good"),
        c(
            "bad --threshold",
            2,
            "--threshold",
            "compare",
            "--baseline",
            "@runs/good",
            "--candidate",
            "@runs/good",
            "--threshold",
            "lots"),
        c("bad --confidence", 2, "--confidence", "intervals", "@runs/good", "--confidence", "2"),
        c(
            "report: bad --check",
            2,
            "--check: check \"p99 <\"",
            "report",
            "@runs/good",
            "--check",
            "p99 <"),
        c("sample: unknown table", 2, "nope", "workload", "sample", "@good.yml", "--table", "nope"),
        c(
            "sample: negative --rows",
            2,
            "--rows",
            "workload",
            "sample",
            "@good.yml",
            "--table",
            "cars",
            "--rows",
            "-1"),
        c("schema: unknown action", 2, "sideways", "schema", "sideways", "@good.yml"),
        c(
            "schema: bad --progress",
            2,
            "--progress must be auto, tty, plain or none, not \"fancy\"",
            "schema",
            "fill",
            "@good.yml",
            "--url",
            "jdbc:postgresql://127.0.0.1:1/app",
            "--progress",
            "fancy"),
        c("bad --cv-warning", 2, "--cv-warning", "intervals", "@runs/good", "--cv-warning", "x"),
        c(
            "bad --alpha",
            2,
            "--alpha",
            "compare",
            "--baseline",
            "@runs/good",
            "--candidate",
            "@runs/good",
            "--alpha",
            "0"),
        c(
            "check --url: a URL without jdbc:",
            2,
            "a JDBC URL starts with jdbc: (jdbc:postgresql://127.0.0.1:1/app?user=app&password=***)",
            "workload",
            "check",
            "@good.yml",
            "--url",
            NOWHERE.substring("jdbc:".length())),
        c(
            "check --url: nothing listens",
            2,
            "password=***",
            "workload",
            "check",
            "@good.yml",
            "--url",
            NOWHERE),
        // garbage run directories
        c("summary: empty dir", 2, "empty", "summary", "@runs/empty"),
        c("summary: a file", 2, "not a directory: ", "summary", "@runs/a-file"),
        c("summary: missing dir", 2, "nothing-here", "summary", "@runs/nothing-here"),
        c("summary: truncated run.json", 2, "run.json:", "summary", "@runs/truncated-json"),
        c(
            "summary: run.json not JSON",
            2,
            "run.json:1: not valid JSON",
            "summary",
            "@runs/not-json"),
        c(
            "summary: garbage latency.hlog",
            2,
            "latency.hlog:2: not a histogram log line",
            "summary",
            "@runs/garbage-hlog"),
        c("report: empty dir", 2, "empty", "report", "@runs/empty"),
        c("report: a file", 2, "not a directory: ", "report", "@runs/a-file"),
        c("report: truncated run.json", 2, "run.json", "report", "@runs/truncated-json"),
        c("report: garbage latency.hlog", 2, "latency.hlog", "report", "@runs/garbage-hlog"),
        c("intervals: empty dir", 2, "empty", "intervals", "@runs/empty"),
        c("intervals: run.json not JSON", 2, "run.json", "intervals", "@runs/not-json"),
        c("intervals: garbage latency.hlog", 2, "latency.hlog", "intervals", "@runs/garbage-hlog"),
        c(
            "compare: a file",
            2,
            "a-file",
            "compare",
            "--baseline",
            "@runs/a-file",
            "--candidate",
            "@runs/good"),
        c(
            "compare: truncated run.json",
            2,
            "run.json",
            "compare",
            "--baseline",
            "@runs/good",
            "--candidate",
            "@runs/truncated-json"),
        c(
            "compare: garbage latency.hlog",
            2,
            "latency.hlog",
            "compare",
            "--baseline",
            "@runs/garbage-hlog",
            "--candidate",
            "@runs/good"),
        c("trend: empty dir", 2, "empty", "trend", "@runs/empty"),
        c("trend: a file", 2, "not a directory: ", "trend", "@runs/a-file"),
        c("trend: run.json not JSON", 2, "run.json", "trend", "@runs/not-json"),
        c("trend: garbage latency.hlog", 2, "latency.hlog", "trend", "@runs/garbage-hlog"),
        // a topic workload's Kafka that cannot be reached: refused before the run, in one line
        c(
            "topics: --url nothing listens",
            2,
            "--url: cannot connect to Kafka at 127.0.0.1:59998: 127.0.0.1:59998 (Connection"
                + " refused)",
            "run",
            "@topics.yml",
            "--url",
            "127.0.0.1:59998"),
        c(
            "topics: none of several --url listens",
            2,
            "127.0.0.1:59998 (Connection refused); 127.0.0.1:59997 (Connection refused)",
            "run",
            "@topics.yml",
            "--url",
            "127.0.0.1:59998,127.0.0.1:59997"),
        c(
            "topics: kafka.bootstrap_servers nothing listens",
            2,
            "topics-kafka-nowhere.yml: kafka.bootstrap_servers: cannot connect to Kafka at"
                + " 127.0.0.1:59998",
            "run",
            "@topics-kafka-nowhere.yml"),
        c(
            "topics: --url without a port",
            2,
            "--url: '127.0.0.1' is not a Kafka bootstrap server (host:port, comma-separated)",
            "run",
            "@topics.yml",
            "--url",
            "127.0.0.1"),
        c(
            "topics: --url a port out of range",
            2,
            "'127.0.0.1:70000' is not a Kafka bootstrap server",
            "run",
            "@topics.yml",
            "--url",
            "127.0.0.1:70000"),
        c(
            "topics: --url an unknown host",
            2,
            "no-such-broker.invalid:9092 (unknown host)",
            "run",
            "@topics.yml",
            "--url",
            "no-such-broker.invalid:9092"));
  }

  /**
   * Options given wrong values or in combinations that cannot hold, for every command that runs:
   * refused before anything starts, naming the option (issue 32's cases and more).
   */
  static Stream<Arguments> optionCases() {
    String good = "@good.yml";
    return Stream.of(
        c(
            "--slo without --mode adaptive",
            2,
            "--slo, --min-rate, --max-rate and --lanes steer the rate of --mode adaptive",
            "run",
            good,
            "--url",
            NOWHERE,
            "--slo",
            "p99 < 20ms"),
        c(
            "adaptive: a topics workload",
            2,
            "--mode adaptive steers the arrival rate of an SQL workload's queries;",
            "run",
            "@topics.yml",
            "--mode",
            "adaptive"),
        c(
            "adaptive: --check",
            2,
            "--check judges a run after it ends; --mode adaptive holds its objectives",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "adaptive",
            "--check",
            "p99 < 5ms"),
        c(
            "adaptive: a bad --slo",
            2,
            "--mode adaptive: limit objective 'p99 soon'",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "adaptive",
            "--slo",
            "p99 soon"),
        c(
            "adaptive: --rate beyond --max-rate",
            2,
            "the first rate 900/s is not between --min-rate 1/s and --max-rate 500/s",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "adaptive",
            "--rate",
            "900",
            "--max-rate",
            "500"),
        c(
            "queue mode: --rate",
            2,
            "--rate set an arrival rate, and queue mode has none",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "queue",
            "--rate",
            "50"),
        c(
            "queue mode: --duration",
            2,
            "--duration set an arrival rate",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "queue",
            "--duration",
            "5s"),
        c(
            "rate mode: --users",
            2,
            "--users sets the users of queue mode",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "rate",
            "--users",
            "3"),
        c(
            "abort rule over 100%",
            2,
            "can never hold",
            "run",
            good,
            "--url",
            NOWHERE,
            "--abort-when",
            "errors > 150% over 5s"),
        c(
            "fault after the run",
            2,
            "after the load's end at 3s",
            "run",
            good,
            "--url",
            NOWHERE,
            "--duration",
            "3s",
            "--fault",
            "at 500s run: true"),
        c(
            "--output is a file",
            2,
            "is a file; it must be a directory",
            "run",
            good,
            "--url",
            NOWHERE,
            "--output",
            good),
        c(
            "impossible rate",
            2,
            "beyond one injector's ceiling",
            "run",
            good,
            "--url",
            NOWHERE,
            "--rate",
            "1000000000000"),
        c("--rate not a number", 2, "--rate", "run", good, "--rate", "fast"),
        c("--rate negative", 2, "--rate must be > 0", "run", good, "--rate", "-5"),
        c("--pool not a number", 2, "--pool", "run", good, "--pool", "x"),
        c("--pool zero", 2, "--pool must be > 0", "run", good, "--pool", "0"),
        c("--replicas 9", 2, "--replicas must be 0 to 8", "run", good, "--replicas", "9"),
        c(
            "--metrics-port 70000",
            2,
            "--metrics-port must be 0-65535",
            "run",
            good,
            "--metrics-port",
            "70000"),
        c(
            "--metrics-hold alone",
            2,
            "--metrics-hold needs --metrics-port",
            "run",
            good,
            "--metrics-hold",
            "5s"),
        c(
            "--influx-url not http",
            2,
            "is not an http(s) URL",
            "run",
            good,
            "--influx-url",
            "ftp://h/write?db=x&u=a&p=" + SECRET),
        c(
            "rate check in queue mode",
            2,
            "has no target rate",
            "run",
            good,
            "--url",
            NOWHERE,
            "--mode",
            "queue",
            "--check",
            "rate >= 95% of target"),
        c(
            "lag check on SQL",
            2,
            "reads no topic",
            "run",
            good,
            "--url",
            NOWHERE,
            "--check",
            "lag not growing"),
        c(
            "recovery without a fault",
            2,
            "schedules no fault",
            "run",
            good,
            "--url",
            NOWHERE,
            "--check",
            "recovery < 10s after \"kill broker 1\""),
        c(
            "--start-at not an instant",
            2,
            "--start-at",
            "run",
            good,
            "--url",
            NOWHERE,
            "--start-at",
            "tomorrow"),
        c(
            "--injector-index past --injectors",
            2,
            "--injector-index counts from 0",
            "run",
            good,
            "--url",
            NOWHERE,
            "--injectors",
            "2",
            "--injector-index",
            "3"),
        c(
            "--injectors on an embedded server",
            2,
            "share one system under test",
            "run",
            good,
            "--injectors",
            "2",
            "--injector-index",
            "0"),
        c("--seed not a number", 2, "--seed", "run", good, "--seed", "abc"),
        c("--duration zero", 2, "--duration must be > 0", "run", good, "--duration", "0s"),
        c("--engine unknown", 2, "--engine", "run", good, "--engine", "turbo"),
        c(
            "--setup unknown",
            2,
            "--setup must be auto, true or false",
            "run",
            good,
            "--setup",
            "maybe"),
        c(
            "--server-setting without =",
            2,
            "--server-setting",
            "run",
            good,
            "--server-setting",
            "nonsense"),
        c("--nodes on SQL", 2, "--nodes applies to logs workloads", "run", good, "--nodes", "3"),
        c(
            "--pool on logs",
            2,
            "--pool applies to SQL workloads",
            "run",
            "@logs.yml",
            "--pool",
            "4"),
        c("logs: store unreachable", 2, "cannot connect to http://127.0.0.1:1", "run", "@logs.yml"),
        c("SQL: database unreachable", 2, "password=***", "run", good, "--url", NOWHERE),
        c("workload is a fifo", 2, "not a regular file", "run", "@a-fifo.yml"),
        c("workload is a directory", 2, "it is a directory", "run", "@a-directory.yml"),
        c("limit: a load option", 2, "--rate", "limit", good, "--rate", "5"),
        c("limit: --from zero", 2, "--from", "limit", good, "--url", NOWHERE, "--from", "0"),
        c(
            "limit: a trend on too short a step",
            2,
            "steps of 7 s at least",
            "limit",
            good,
            "--url",
            NOWHERE,
            "--step",
            "5s",
            "--slo",
            "latency not growing"),
        c(
            "ladder: --levels 0",
            2,
            "--levels must be whole numbers >= 1",
            "ladder",
            good,
            "--levels",
            "0"),
        c("ladder: --repeats 0", 2, "--repeats must be >= 1", "ladder", good, "--repeats", "0"),
        c("ladder: --levels text", 2, "--levels", "ladder", good, "--levels", "a,b"),
        c(
            "k8s: a password after --",
            2,
            "holds a password",
            "k8s",
            good,
            "--injectors",
            "2",
            "--",
            "--url",
            NOWHERE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("optionCases")
  void isAOneLineOptionError(String name, java.util.List<String> args, int exit, String fragment) {
    isAOneLineUserError(name, args, exit, fragment);
  }

  private static Arguments c(String name, int exit, String fragment, String... args) {
    return Arguments.of(name, Arrays.asList(args), exit, fragment);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void isAOneLineUserError(String name, java.util.List<String> args, int exit, String fragment) {
    String[] resolved =
        args.stream()
            .map(a -> a.startsWith("@") ? base.resolve(a.substring(1)).toString() : a)
            .toArray(String[]::new);
    long started = System.nanoTime();
    CliRun run = CliRun.of(resolved);
    long took = (System.nanoTime() - started) / 1_000_000;
    String all = run.out() + run.err();
    assertThat(run.exitCode()).as(name + ": " + all).isEqualTo(exit);
    assertThat(took).as(name + ": refused within 10 s").isLessThan(10_000);
    assertThat(run.err()).as(name).contains(fragment);
    assertThat(all).as(name).doesNotContain("\tat ").doesNotContainPattern("[A-Za-z]+Exception");
    assertThat(all).as(name).doesNotContain(SECRET);
  }

  /**
   * A Kafka bootstrap server whose port answers TCP but not as Kafka (it accepts and says nothing):
   * refused once the cluster's answer is overdue, in one line, well within 10 s.
   */
  @org.junit.jupiter.api.Test
  @org.junit.jupiter.api.Tag("slow")
  void aTopicUrlThatIsNotKafkaIsRefusedInOneLine() throws Exception {
    try (java.net.ServerSocket silent =
        new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      java.util.List<java.net.Socket> held = new java.util.ArrayList<>();
      Thread acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    held.add(silent.accept());
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      String url = "127.0.0.1:" + silent.getLocalPort();
      long started = System.nanoTime();
      CliRun run = CliRun.of("run", base.resolve("topics.yml").toString(), "--url", url);
      long took = (System.nanoTime() - started) / 1_000_000;
      System.out.println("BadInputTest: a silent port refused in " + took + " ms");
      String all = run.out() + run.err();
      assertThat(run.exitCode()).as(all).isEqualTo(2);
      assertThat(run.err().strip())
          .as(all)
          .isEqualTo(
              "fusillade: --url: Kafka at "
                  + url
                  + " did not answer within 5 s (a port that is not Kafka's, or settings it"
                  + " refuses)");
      assertThat(all).doesNotContain("\tat ").doesNotContain("WARN");
      assertThat(took).isLessThan(10_000);
    }
  }
}
