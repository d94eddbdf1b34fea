package io.fusillade.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compose files of {@code docker/compose}: each is valid against Fusillade's subset of the
 * Compose file ({@link ComposeSchema#SUBSET}) and, given {@code
 * -Dfusillade.compose.schema=PATH/compose-spec.json}, against the Compose Specification's own
 * schema too; they publish the ports the documentation gives; and the validation refuses broken
 * files (the negative cases), so that a passing test means something. No Docker needed.
 */
class ComposeFilesTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
  private static final Path COMPOSE = ROOT.resolve("docker/compose");
  private static final Path DOCS = ROOT.resolve("src/site/your-project.md");

  /** The published ports of each file, as src/site/your-project.md and the workloads use them. */
  private static final Map<String, List<Integer>> PORTS =
      Map.of(
          "postgres.yml", List.of(5432),
          "kafka.yml", List.of(9092),
          "kafka-cluster.yml", List.of(9092, 9093, 9094),
          "opensearch.yml", List.of(9200),
          "monitoring.yml", List.of(9090, 3000));

  static Stream<Path> composeFiles() throws IOException {
    try (Stream<Path> files = Files.list(COMPOSE)) {
      return files.filter(p -> p.toString().endsWith(".yml")).sorted().toList().stream();
    }
  }

  @Test
  void everyStackHasItsFile() throws IOException {
    assertThat(composeFiles().map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrderElementsOf(PORTS.keySet());
  }

  @ParameterizedTest
  @MethodSource("composeFiles")
  void isValidAgainstTheSubsetSchema(Path file) throws IOException {
    assertThat(ComposeSchema.subset().problems(Files.readString(file)))
        .as("%s against %s", ROOT.relativize(file), ComposeSchema.SUBSET)
        .isEmpty();
  }

  /**
   * Against the Compose Specification's {@code schema/compose-spec.json} when the build is given
   * it: the project does not ship that file (see src/site/your-project.md).
   */
  @ParameterizedTest
  @MethodSource("composeFiles")
  void isValidAgainstTheSpecificationSchemaWhenGiven(Path file) throws IOException {
    String given = System.getProperty("fusillade.compose.schema");
    Assumptions.assumeTrue(
        given != null && !given.isBlank(),
        "no -Dfusillade.compose.schema=PATH: validated against the subset schema only");
    ComposeSchema specification = ComposeSchema.file(Path.of(given));
    assertThat(specification.problems(Files.readString(file)))
        .as("%s against %s", ROOT.relativize(file), given)
        .isEmpty();
  }

  @ParameterizedTest
  @MethodSource("composeFiles")
  void publishesTheDocumentedPortsOnLoopback(Path file) throws IOException {
    List<Integer> expected = PORTS.get(file.getFileName().toString());
    assertThat(publishedPorts(file)).as("%s's published ports", file).isEqualTo(expected);
    String docs = Files.readString(DOCS);
    for (int port : expected) {
      assertThat(docs)
          .as("your-project.md names localhost:%d of %s", port, file.getFileName())
          .contains("localhost:" + port);
    }
  }

  /** Images pinned and official: the same versions as the embedded servers where there is one. */
  @Test
  void imagesArePinnedToTheEmbeddedServersVersions() throws IOException {
    Map<String, String> images = new TreeMap<>();
    for (Path file : composeFiles().toList()) {
      JsonNode services = new YAMLMapper().readTree(file.toFile()).get("services");
      services
          .fields()
          .forEachRemaining(e -> images.put(e.getKey(), e.getValue().get("image").asText()));
    }
    assertThat(images)
        .containsEntry("postgres", "postgres:18.6")
        .containsEntry("kafka", "apache/kafka:4.3.1")
        .containsEntry("kafka-2", "apache/kafka:4.3.1")
        .containsEntry("opensearch", "opensearchproject/opensearch:2.19.1");
  }

  // Negative cases: each a small change to a valid file, and the line the schema gives for it.

  private static final String VALID =
      """
      name: broken
      services:
        postgres:
          image: postgres:18.6
          ports:
            - "127.0.0.1:5432:5432"
          healthcheck:
            test: ["CMD-SHELL", "pg_isready"]
            interval: 2s
            retries: 30
      """;

  @Test
  void theValidBaseOfTheNegativeCasesIsValid() {
    assertThat(ComposeSchema.subset().problems(VALID)).isEmpty();
  }

  @Test
  void refusesAMisspeltKey() {
    assertThat(problems(VALID.replace("ports:", "port:")))
        .anyMatch(p -> p.startsWith("/services/postgres") && p.contains("port"));
  }

  @Test
  void refusesAnImageWithoutAPinnedTag() {
    assertThat(problems(VALID.replace("postgres:18.6", "postgres")))
        .anyMatch(p -> p.startsWith("/services/postgres/image"));
    assertThat(problems(VALID.replace("postgres:18.6", "postgres:latest")))
        .anyMatch(p -> p.startsWith("/services/postgres/image"));
  }

  @Test
  void refusesAPortOfTheWrongTypeOrOnEveryInterface() {
    assertThat(problems(VALID.replace("- \"127.0.0.1:5432:5432\"", "- 5432")))
        .anyMatch(p -> p.startsWith("/services/postgres/ports/0"));
    assertThat(problems(VALID.replace("127.0.0.1:5432:5432", "5432:5432")))
        .anyMatch(p -> p.startsWith("/services/postgres/ports/0"));
  }

  @Test
  void refusesAWrongHealthcheck() {
    assertThat(problems(VALID.replace("retries: 30", "retries: thirty")))
        .anyMatch(p -> p.startsWith("/services/postgres/healthcheck/retries"));
    assertThat(problems(VALID.replace("interval: 2s", "interval: 2 seconds")))
        .anyMatch(p -> p.startsWith("/services/postgres/healthcheck/interval"));
  }

  @Test
  void refusesAFileWithoutServicesOrWithAnUnknownTopLevelKey() {
    assertThat(problems(VALID.replace("services:", "service:")))
        .anyMatch(p -> p.contains("services"))
        .anyMatch(p -> p.contains("service"));
    assertThat(problems("name: empty\n")).anyMatch(p -> p.contains("services"));
  }

  @Test
  void refusesAServiceWithoutAnImage() {
    assertThat(problems(VALID.replace("image: postgres:18.6", "hostname: db")))
        .anyMatch(p -> p.startsWith("/services/postgres") && p.contains("image"));
  }

  @Test
  void reportsYamlThatDoesNotParse() {
    assertThat(problems("services:\n  postgres:\n\timage: postgres:18.6\n"))
        .singleElement()
        .satisfies(p -> assertThat(p).startsWith("not YAML"));
  }

  private static List<String> problems(String yaml) {
    List<String> problems = ComposeSchema.subset().problems(yaml);
    assertThat(problems).as("problems of%n%s", yaml).isNotEmpty();
    return problems;
  }

  /** The host ports of every service's {@code HOST_IP:HOST_PORT:CONTAINER_PORT}, in file order. */
  private static List<Integer> publishedPorts(Path file) throws IOException {
    List<Integer> ports = new ArrayList<>();
    Pattern shortSyntax = Pattern.compile("^(?:[0-9.]+:)?([0-9]+):[0-9]+(?:/\\w+)?$");
    JsonNode services = new YAMLMapper().readTree(file.toFile()).get("services");
    for (JsonNode service : services) {
      for (JsonNode port : service.path("ports")) {
        Matcher m = shortSyntax.matcher(port.asText());
        assertThat(m.matches()).as("%s: port %s", file, port).isTrue();
        ports.add(Integer.parseInt(m.group(1)));
      }
    }
    return ports;
  }
}
