package io.fusillade.outside;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.record.RequestTotals;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import io.fusillade.record.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A team's own Maven project, outside this build, as {@code src/site/your-project.md} shows it: its
 * pom (the BOM, one protocol artifact, a local server, Gatling's charts and plugin) and one
 * simulation, run with plain {@code mvn gatling:test} (no simulation class named), offline, by a
 * child Maven that gets this build's artifacts from a temporary repository (see {@link
 * BuildArtifacts}, {@link OfflineMaven}).
 *
 * <p>It needs the modules' jars, which {@code mvn verify} makes before these tests run; under
 * {@code mvn test} it is skipped, saying so.
 */
@Tag("slow")
class OutsideProjectTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(5);
  private static final String SQL_SIMULATION = "src/test/java/com/example/AccountLookups.java";
  private static final String TOPIC_SIMULATION = "src/test/java/com/example/EventWrites.java";
  private static final String LOGS_SIMULATION = "src/test/java/com/example/WebLogIngest.java";
  private static final String LOGBACK = "src/test/resources/logback-test.xml";

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path ROOT_POM = ROOT.resolve("pom.xml");

  @TempDir static Path work;
  private static DocumentedProject page;
  private static OfflineMaven maven;
  private static String version;

  /** Why the project cannot be built here (empty when it can). */
  private static String notPossible = "";

  @BeforeAll
  static void prepareRepository() throws Exception {
    page = DocumentedProject.read(ROOT.resolve("src/site/your-project.md"));
    BuildArtifacts artifacts = BuildArtifacts.of(ROOT);
    List<String> problems = artifacts.problems();
    if (!problems.isEmpty()) {
      notPossible =
          "the outside project needs this build's jars, made by `mvn verify` (not `mvn test`)"
              + " before these tests run: "
              + String.join("; ", problems);
      System.out.println("OutsideProjectTest skipped: " + notPossible);
      return;
    }
    Path mvn =
        OfflineMaven.executable()
            .orElseThrow(
                () -> new AssertionError("no Maven: neither maven.home nor mvn on the PATH"));
    Path buildRepository =
        Path.of(
            System.getProperty(
                "localRepository", System.getProperty("user.home") + "/.m2/repository"));
    Path repository = work.resolve("repository");
    artifacts.copyInto(repository);
    version = artifacts.version();
    maven = OfflineMaven.create(mvn, work, repository, buildRepository);
  }

  /** Skipped, each test with the reason, rather than testing stale jars. */
  @BeforeEach
  void requireTheJars() {
    Assumptions.assumeTrue(notPossible.isEmpty(), notPossible);
  }

  @Test
  // Timed: the page's simulation checks p99 < 100 ms, which a busy machine bent (2026-11-27, see
  // cli-tests' pom).
  @Tag("timed")
  void plainGatlingTestRunsTheDocumentedSqlSimulationAndLeavesItsRunRecord() throws Exception {
    Path project = project("sql", page.files().get(SQL_SIMULATION), SQL_SIMULATION);

    OfflineMaven.Result result = gatlingTest(project);

    assertThat(result.exitCode()).as(result.output()).isZero();
    RunRecord record = onlyRunRecord(project, result);
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    assertThat(record.manifest().simulation()).isEqualTo("com.example.AccountLookups");
    RequestTotals lookups = record.requests().get("account by id");
    assertThat(lookups.okCount()).as(result.output()).isEqualTo(50 * 10);
    assertThat(lookups.koCount()).isZero();
    // each lookup saved its account's owner (a check's saveAs), which the next request reads back
    assertThat(record.requests().get("accounts of owner").okCount()).isEqualTo(50 * 10);
    assertThat(result.output())
        .contains("passed: errors < 1%")
        .contains("passed: p99 < 100ms")
        .doesNotContain("more than 1 simulation");
  }

  /**
   * The same project with a check no run can pass: the build must fail, as it does for a Gatling
   * assertion: a failed check ends the Gatling JVM with exit code 2, which the gatling-maven-plugin
   * turns into a failed build.
   */
  @Test
  void aFailedCheckFailsTheBuild() throws Exception {
    String simulation = page.files().get(SQL_SIMULATION);
    String failing =
        simulation.replace(
            "FusilladeRun.checks(\"errors < 1%\", \"p99 < 100ms\");",
            "FusilladeRun.checks(\"p99 < 0.001ms\");");
    assertThat(failing).as("the page's simulation declares its checks").isNotEqualTo(simulation);
    Path project = project("failing-check", failing, SQL_SIMULATION);

    OfflineMaven.Result result = gatlingTest(project);

    assertThat(result.output()).contains("FAILED: p99 < 0.001ms");
    assertThat(result.exitCode()).as(result.output()).isNotZero();
    // The run itself completed: the verdict failed, not the run.
    assertThat(onlyRunRecord(project, result).manifest().status()).isEqualTo(RunStatus.COMPLETED);
  }

  /**
   * The logs DSL beside OpenSearch in one project: OpenSearch asks for Netty 4.1, Gatling runs on
   * 4.2, and a mix of the two failed with {@code NoSuchMethodError:
   * io.netty.handler.codec.DefaultHeaders.containsAny} (issue 19).
   */
  @Test
  void theLogsDslRunsBesideTheEmbeddedOpenSearch() throws Exception {
    Path project = project("logs", page.files().get(LOGS_SIMULATION), LOGS_SIMULATION);
    String pom = Files.readString(project.resolve("pom.xml"));
    // The page's pom is for SQL; it says to swap the two Fusillade artifacts for another protocol.
    Files.writeString(
        project.resolve("pom.xml"),
        pom.replace("fusillade-gatling-sql", "fusillade-gatling-logs")
            .replace("fusillade-local-postgres", "fusillade-local-opensearch"));

    OfflineMaven.Result result = gatlingTest(project);

    assertThat(result.output()).doesNotContain("NoSuchMethodError");
    assertThat(result.exitCode()).as(result.output()).isZero();
    RunRecord record = onlyRunRecord(project, result);
    assertThat(record.manifest().status()).isEqualTo(RunStatus.COMPLETED);
    RequestTotals bulks = record.requests().get("bulk of 1000 web logs");
    assertThat(bulks.okCount()).as(result.output()).isEqualTo(4 * 5);
    assertThat(bulks.koCount()).isZero();
    assertThat(record.requests().get("server errors").okCount()).isEqualTo(5);
  }

  /**
   * The page's topic simulation compiles against {@code fusillade-gatling-kafka} and {@code
   * fusillade-local-kafka} (running it as well would add half a minute; the topic simulations of
   * this build run the same protocol).
   */
  @Test
  void theTopicSimulationCompilesInItsProject() throws Exception {
    Path project = project("topic", page.files().get(TOPIC_SIMULATION), TOPIC_SIMULATION);
    String pom = Files.readString(project.resolve("pom.xml"));
    Files.writeString(
        project.resolve("pom.xml"),
        pom.replace("fusillade-gatling-sql", "fusillade-gatling-kafka")
            .replace("fusillade-local-postgres", "fusillade-local-kafka"));

    OfflineMaven.Result result =
        maven.run(project, work.resolve("topic.out"), TIMEOUT, "test-compile");

    assertThat(result.missingThirdParty()).isEmpty();
    assertThat(result.exitCode()).as(result.output()).isZero();
    assertThat(project.resolve("target/test-classes/com/example/EventWrites.class")).exists();
  }

  /**
   * A project that does not import the BOM gets its Netty through {@code
   * fusillade-local-opensearch}'s own pom: 4.2 only, although OpenSearch asks for 4.1.118 (the
   * clash of issue 19, for those who give every version by hand).
   */
  @Test
  void withoutTheBomEveryNettyIsStillGatlings() throws Exception {
    Path project = project("logs-without-bom", page.files().get(LOGS_SIMULATION), LOGS_SIMULATION);
    String gatling = property(ROOT_POM, "gatling.version");
    String pom =
        Files.readString(project.resolve("pom.xml"))
            .replaceAll("(?s)<dependencyManagement>.*</dependencyManagement>", "")
            .replace(
                "<artifactId>fusillade-gatling-sql</artifactId>",
                "<artifactId>fusillade-gatling-logs</artifactId>"
                    + "<version>${fusillade.version}</version>")
            .replace(
                "<artifactId>fusillade-local-postgres</artifactId>",
                "<artifactId>fusillade-local-opensearch</artifactId>"
                    + "<version>${fusillade.version}</version>")
            .replace(
                "<artifactId>gatling-charts-highcharts</artifactId>",
                "<artifactId>gatling-charts-highcharts</artifactId><version>"
                    + gatling
                    + "</version>");
    Files.writeString(project.resolve("pom.xml"), pom);
    Path tree = work.resolve("logs-without-bom.tree");

    // The tree needs the poms only, which this build has (some jars it never downloaded).
    OfflineMaven.Result result =
        maven.run(
            project,
            work.resolve("logs-without-bom.out"),
            TIMEOUT,
            "org.apache.maven.plugins:maven-dependency-plugin:"
                + pluginVersion(ROOT_POM, "maven-dependency-plugin")
                + ":tree",
            "-DoutputFile=" + tree);

    assertThat(result.exitCode()).as(result.output()).isZero();
    List<String> netty =
        Files.readAllLines(tree).stream()
            .map(line -> line.replaceFirst("^[-|+\\\\ ]*", ""))
            .filter(line -> line.startsWith("io.netty:") && !line.contains("tcnative"))
            .toList();
    assertThat(netty).isNotEmpty().allMatch(line -> line.contains(":4.2."), "Netty 4.2");
    assertThat(netty).anyMatch(line -> line.startsWith("io.netty:netty-codec:"));
  }

  private static String property(Path pom, String name) throws Exception {
    Matcher m =
        Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</").matcher(Files.readString(pom));
    assertThat(m.find()).as(name + " in " + pom).isTrue();
    return m.group(1).strip();
  }

  private static String pluginVersion(Path pom, String artifactId) throws Exception {
    Matcher m =
        Pattern.compile("<artifactId>" + artifactId + "</artifactId>\\s*<version>([^<]+)</")
            .matcher(Files.readString(pom));
    assertThat(m.find()).as(artifactId + "'s version in " + pom).isTrue();
    return m.group(1).strip();
  }

  /**
   * A project directory named {@code name}: the page's pom (at this build's version) and logback
   * configuration, and {@code simulation} at {@code path}, the only simulation.
   */
  private static Path project(String name, String simulation, String path) throws Exception {
    assertThat(simulation).as("your-project.md shows " + path).isNotNull();
    Path project = Files.createDirectory(work.resolve(name));
    String pom =
        page.file("pom.xml")
            .replaceFirst(
                "<fusillade.version>[^<]*</fusillade.version>",
                "<fusillade.version>" + version + "</fusillade.version>");
    DocumentedProject.write(project, "pom.xml", pom);
    DocumentedProject.write(project, LOGBACK, page.file(LOGBACK));
    DocumentedProject.write(project, path, simulation);
    return project;
  }

  private static OfflineMaven.Result gatlingTest(Path project) throws Exception {
    OfflineMaven.Result result =
        maven.run(project, work.resolve(project.getFileName() + ".out"), TIMEOUT, "gatling:test");
    List<String> missing = result.missingThirdParty();
    Assumptions.assumeTrue(
        missing.isEmpty(),
        () ->
            "this build never downloaded what the outside project needs, and the test runs"
                + " offline: "
                + missing
                + " (`mvn -Pquickstart verify` once, online, fetches Gatling's plugin)");
    return result;
  }

  private static RunRecord onlyRunRecord(Path project, OfflineMaven.Result result)
      throws Exception {
    Path runs = project.resolve("target/fusillade");
    assertThat(runs).as(result.output()).isDirectory();
    try (Stream<Path> list = Files.list(runs)) {
      List<Path> directories = list.toList();
      assertThat(directories).as(result.output()).hasSize(1);
      return RunRecordReader.read(directories.get(0));
    }
  }
}
