package io.fusillade.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.cli.CliProcess;
import io.fusillade.local.LocalPostgres;
import io.fusillade.logs.SharedOpenSearch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Passwords never leave the process that uses them: after real runs of the {@code fusillade}
 * command (its {@code main}, in a JVM of its own whose environment holds the secrets) against a
 * PostgreSQL that requires SCRAM-SHA-256 and an OpenSearch behind basic authentication, the
 * password is in none of what the user can see or keep: the console (where the logs go), every file
 * of the run record, Fusillade's report (HTML, {@code summary.json}, JUnit XML) and Gatling's
 * report directory ({@code simulation.log}, HTML, scripts) — neither as written, nor URL-encoded,
 * nor in base64 (as in an {@code Authorization: Basic} header).
 */
@Tag("slow")
class SecretsTest {
  private static final String USER = "app";

  /** Distinctive, and changed by URL-encoding ('/', '+', '=') so every form is searched. */
  private static final String SECRET = "Qz7/Fusillade+S3cret=91";

  private static LocalPostgres postgres;

  @TempDir Path dir;

  /** The records of this test already written again with {@code fusillade report}. */
  private final java.util.Set<Path> reported = new java.util.HashSet<>();

  @BeforeAll
  static void start() {
    postgres = LocalPostgres.builder().passwordUser(USER, SECRET).start();
  }

  @AfterAll
  static void stop() {
    postgres.close();
  }

  /** What a leak may look like. */
  private static List<String> forms(String user, String password) {
    return List.of(
        password,
        URLEncoder.encode(password, StandardCharsets.UTF_8),
        Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8)),
        Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
  }

  private Path sqlWorkload(String table, String connection) throws IOException {
    Path file = dir.resolve(table + ".yml");
    Files.writeString(
        file,
        """
        config_name: %s
        %s
        tables_schema:
          - name: %s
            row_count: 50
            columns:
              - {name: id, type: integer, range: [1, 50], unique: true}
            primary_keys: [id]
        queries:
          - name: by id
            sql: select id from %s where id = $1::integer
            params:
              - {type: integer, range: [1, 50]}
            count: 50
        load: {mode: rate, rate: 50, duration: 1s}
        # The queries must succeed; the injector's health is not this test's subject (and a
        # shared CI machine may delay it).
        checks: ['errors < 1%%']
        """
            .formatted(table, connection, table, table));
    return file;
  }

  /**
   * A password in the JDBC URL of a run (its setup by the limit search, its teardown by the last
   * run), of a limit search, of a ladder, and in the URL of InfluxDB.
   */
  @Test
  void aPasswordInTheUrlOfARunALimitSearchOrALadderOrOfInfluxDbIsNeverShown() throws Exception {
    String url =
        postgres.jdbcUrl(USER) + "&password=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
    Path file = sqlWorkload("s_limit", "");
    Run limit =
        fusillade(
            Map.of(),
            "limit",
            file.toString(),
            "--url",
            url,
            "--setup",
            "true",
            "--step",
            "3s",
            "--max-steps",
            "2",
            "--slo",
            "errors < 1%",
            "--output",
            dir.resolve("limit").toString());
    assertThat(limit.exitCode()).as(limit.console()).isIn(0, 6);
    assertNoSecret(limit);
    Run ladder =
        fusillade(
            Map.of(),
            "ladder",
            file.toString(),
            "--url",
            url,
            "--levels",
            "1",
            "--repeats",
            "1",
            "--output",
            dir.resolve("ladder").toString());
    ladder.assertExit(0);
    assertNoSecret(ladder);
    Run influx =
        fusillade(
            Map.of(),
            "run",
            file.toString(),
            "--url",
            url,
            "--influx-url",
            "http://127.0.0.1:1/write?db=x&u=admin&p="
                + URLEncoder.encode(SECRET, StandardCharsets.UTF_8),
            "--teardown");
    influx.assertExit(0);
    assertNoSecret(influx);
  }

  @Test
  void kubernetesManifestsTakeCredentialsFromSecretsAndRefuseThemWritten() throws Exception {
    Path file = sqlWorkload("s_k8s", "");
    Path manifests = dir.resolve("k8s");
    Run written =
        fusillade(
            Map.of(),
            "k8s",
            file.toString(),
            "--injectors",
            "2",
            "--password-secret",
            "accounts-db",
            "--output",
            manifests.toString(),
            "--",
            "--url",
            "jdbc:postgresql://db:5432/app?user=app");
    written.assertExit(0);
    assertThat(Files.readString(manifests.resolve("injectors.yml")))
        .contains("secretKeyRef", "accounts-db");
    Run refused =
        fusillade(
            Map.of(),
            "k8s",
            file.toString(),
            "--injectors",
            "2",
            "--output",
            dir.resolve("k8s-refused").toString(),
            "--",
            "--url",
            "jdbc:postgresql://db:5432/app?user=app&password=" + SECRET);
    refused.assertExit(2);
    assertThat(refused.console()).contains("holds a password");
    assertThat(dir.resolve("k8s-refused")).doesNotExist();
    assertNoSecret(refused);
  }

  @Test
  void aPasswordInTheEnvironmentIsNeverShownWithEitherEngine() throws Exception {
    Path file = sqlWorkload("s_env", "");
    for (String engine : List.of("jdbc", "native")) {
      Run run =
          fusillade(
              Map.of("FUSILLADE_SQL_PASSWORD", SECRET),
              "run",
              file.toString(),
              "--url",
              postgres.jdbcUrl(USER),
              "--user",
              USER,
              "--engine",
              engine,
              "--setup",
              "true",
              "--teardown");
      run.assertExit(0);
      assertNoSecret(run);
    }
  }

  @Test
  void aPasswordOfTheWorkloadsConnectionIsNeverShown() throws Exception {
    Path file =
        sqlWorkload(
            "s_yaml",
            """
            connection:
              urls: ['${env:PG_URL}']
              user: ${env:PG_USER}
              password: ${env:PG_PASSWORD}
            """);
    Run run =
        fusillade(
            Map.of("PG_URL", postgres.jdbcUrl(USER), "PG_USER", USER, "PG_PASSWORD", SECRET),
            "run",
            file.toString(),
            "--setup",
            "true",
            "--teardown");
    run.assertExit(0);
    assertNoSecret(run);
  }

  @Test
  void theSchemaToolAndTheWorkloadCheckNeverShowThePassword() throws Exception {
    Path file = sqlWorkload("s_schema", "");
    String url =
        postgres.jdbcUrl(USER) + "&password=" + URLEncoder.encode(SECRET, StandardCharsets.UTF_8);
    for (String step : List.of("up", "fill", "down")) {
      Run run = fusillade(Map.of(), "schema", step, file.toString(), "--url", url);
      run.assertExit(0);
      assertNoSecret(run);
    }
    Run check =
        fusillade(
            Map.of("FUSILLADE_SQL_PASSWORD", SECRET),
            "workload",
            "check",
            file.toString(),
            "--url",
            postgres.jdbcUrl(USER),
            "--user",
            USER);
    check.assertExit(0);
    assertNoSecret(check);
    // A refused query names the URL: masked.
    Path broken = dir.resolve("broken.yml");
    Files.writeString(
        broken, Files.readString(file).replace("select id from s_schema", "select id from nope"));
    Run refused = fusillade(Map.of(), "workload", "check", broken.toString(), "--url", url);
    refused.assertExit(2);
    assertThat(refused.console()).contains("password=***");
    assertNoSecret(refused);
  }

  @Test
  void aWrongPasswordIsRefusedWithoutShowingIt() throws Exception {
    // The wrong password holds the right one: a leak of either is found.
    String wrong = SECRET + "-wrong";
    Run fromEnvironment =
        fusillade(
            Map.of("FUSILLADE_SQL_PASSWORD", wrong),
            "run",
            sqlWorkload("s_wrong", "").toString(),
            "--url",
            postgres.jdbcUrl(USER),
            "--user",
            USER);
    fromEnvironment.assertExit(2);
    assertThat(fromEnvironment.console()).contains("password authentication failed");
    assertNoSecret(fromEnvironment);

    String url =
        postgres.jdbcUrl(USER) + "&password=" + URLEncoder.encode(wrong, StandardCharsets.UTF_8);
    Run fromUrl = fusillade(Map.of(), "run", sqlWorkload("s_wrong2", "").toString(), "--url", url);
    fromUrl.assertExit(2);
    assertThat(fromUrl.console()).contains("password authentication failed");
    assertNoSecret(fromUrl);
  }

  @Test
  void aLogStorePasswordIsNeverShown() throws Exception {
    // The suite's shared node (the run recreates its index), behind a proxy that asks for the
    // password as a secured node does.
    try (BasicAuthProxy proxy = new BasicAuthProxy(SharedOpenSearch.url(), "ingest", SECRET)) {
      Path file = dir.resolve("logs.yml");
      Files.writeString(
          file,
          """
          config_name: secret-logs
          logs:
            urls: ['${env:ES_URL}']
            user: ${env:ES_USER}
            password: ${env:ES_PASSWORD}
            index: secret-logs
            bulk_size: 500
            docs: 2000
            concurrency: 2
            searches:
              - name: status in
                duration: 1s
          checks: ['errors < 1%']
          """);
      Run run =
          fusillade(
              Map.of("ES_URL", proxy.baseUrl(), "ES_USER", "ingest", "ES_PASSWORD", SECRET),
              "run",
              file.toString());
      run.assertExit(0);
      assertThat(proxy.accepted()).as("requests with the right credentials").isPositive();
      assertNoSecret(run, forms("ingest", SECRET));

      // Without the password, the proxy refuses as a secured node does.
      long refusedBefore = proxy.refused();
      Run wrong =
          fusillade(
              Map.of("ES_URL", proxy.baseUrl(), "ES_USER", "ingest", "ES_PASSWORD", SECRET + "x"),
              "run",
              file.toString());
      assertThat(wrong.exitCode()).as(wrong.console()).isNotZero();
      assertThat(proxy.refused()).isGreaterThan(refusedBefore);
      assertNoSecret(wrong, forms("ingest", SECRET));
    }
  }

  private void assertNoSecret(Run run) throws IOException {
    assertNoSecret(run, forms(USER, SECRET));
  }

  /**
   * Greps the console and every file under the test's directory (the run records, their reports,
   * Gatling's results) for every form of the password; also writes the report of each new record
   * again with {@code fusillade report}, as a user would, and greps what it printed and wrote.
   */
  private void assertNoSecret(Run run, List<String> forms) throws IOException {
    for (String form : forms) {
      assertThat(run.console()).as("console of %s", run.args()).doesNotContain(form);
    }
    for (Path record : records()) {
      if (!reported.add(record)) {
        continue; // reported after an earlier command of this test, and not written since
      }
      // In this JVM: a report is made from the record's files alone (searched below), so a JVM of
      // its own, with its own environment, would show nothing more.
      java.io.StringWriter printed = new java.io.StringWriter();
      java.io.PrintWriter console = new java.io.PrintWriter(printed, true);
      io.fusillade.cli.FusilladeCommand.execute(
          new String[] {"report", record.toString()}, console, console);
      // its exit code is the record's verdict (3 for a failed run): what matters is that it ran
      assertThat(printed.toString()).as("fusillade report %s", record).contains("Fusillade report");
      for (String form : forms) {
        assertThat(printed.toString()).doesNotContain(form);
      }
    }
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files =
          walk.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".yml")).toList();
    }
    if (run.exitCode() == 0 && run.args().get(0).equals("run")) {
      assertThat(files.stream().map(f -> f.getFileName().toString()))
          .as("the run record, both reports and Gatling's log are searched")
          .contains("run.json", "counters.jsonl", "summary.json", "junit.xml", "simulation.log")
          .anyMatch(name -> name.endsWith(".html"))
          .anyMatch(name -> name.endsWith(".js"));
      assertThat(run.console())
          .as("the forked Gatling JVM's command line is searched")
          .contains("ps: ")
          .contains("io.fusillade.gatling.GatlingMain");
    }
    for (Path file : files) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      for (String form : forms) {
        assertThat(text).as("%s after %s", file, run.args()).doesNotContain(form);
      }
    }
  }

  private List<Path> records() throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(p -> p.getFileName().toString().equals("run.json"))
          .map(Path::getParent)
          .toList();
    }
  }

  /**
   * The command lines of a process's descendants, as {@code ps -eo args} shows them to every user
   * of the machine ({@code /proc/PID/cmdline}). Not the process's own: that is the command the user
   * typed, password included when the user put it there; what Fusillade starts must not repeat it.
   */
  private static List<String> commandLines(Process process) {
    List<String> lines = new ArrayList<>();
    for (ProcessHandle p : process.descendants().toList()) {
      try {
        byte[] line = Files.readAllBytes(Path.of("/proc", Long.toString(p.pid()), "cmdline"));
        lines.add("ps: " + new String(line, StandardCharsets.UTF_8).replace('\0', ' '));
      } catch (IOException gone) {
        // ended meanwhile
      }
    }
    return lines;
  }

  /**
   * What a {@code fusillade} command printed (and, after it, the command lines {@code ps} showed
   * while it ran), and its exit code.
   */
  record Run(List<String> args, int exitCode, String console) {
    void assertExit(int expected) {
      assertThat(exitCode).as(String.join(" ", args) + "\n" + console).isEqualTo(expected);
    }
  }

  /**
   * Runs the {@code fusillade} command as the script does ({@code java ... FusilladeCommand}), in a
   * JVM of its own with the given environment, output under the test's directory.
   */
  private Run fusillade(Map<String, String> environment, String... args) {
    List<String> command = CliProcess.command(args);
    if (args[0].equals("run")) {
      command.add("--output");
      command.add(dir.resolve("out").toString());
      command.add("--gatling-report"); // Gatling's log and report are searched too
    }
    Path console = dir.resolve("console-" + System.nanoTime() + ".txt");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(console.toFile());
    Map<String, String> env = builder.environment();
    env.remove("FUSILLADE_SQL_PASSWORD");
    env.putAll(new LinkedHashMap<>(environment));
    try {
      Process process = builder.start();
      // What every user of the machine sees with ps: the command lines of every process, sampled
      // while the command runs (the forked Gatling JVM, the servers' JVMs).
      java.util.Set<String> commandLines = new java.util.LinkedHashSet<>();
      long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
      while (!process.waitFor(100, TimeUnit.MILLISECONDS)) {
        commandLines.addAll(commandLines(process));
        if (System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new AssertionError("fusillade " + String.join(" ", args) + " did not end");
        }
      }
      String printed = Files.readString(console);
      Files.delete(console); // searched through the returned text, not twice
      return new Run(List.of(args), process.exitValue(), printed + String.join("\n", commandLines));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
