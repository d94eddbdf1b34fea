package io.fusillade.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compose files of {@code docker/compose}: each is valid against Fusillade's subset of the
 * Compose file ({@link ComposeSchema#SUBSET}) and against the Compose Specification's own schema
 * (found as {@link #specificationSchema()} says; required when CI=true); they publish the ports the
 * documentation gives; and the validation refuses broken files (the negative cases), so that a
 * passing test means something. No Docker needed.
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

  /** The system property that names the Compose Specification's schema file. */
  static final String SCHEMA_PROPERTY = "fusillade.compose.schema";

  /** The environment variable that names it when the property does not. */
  static final String SCHEMA_VARIABLE = "FUSILLADE_COMPOSE_SCHEMA";

  /**
   * Where the schema is looked for when neither names it: where Debian's {@code docker-compose}
   * package installs it, and where {@code .ci/run} extracts it from that package.
   */
  static final List<Path> SCHEMA_PATHS =
      List.of(
          Path.of("/usr/lib/python3/dist-packages/compose/config/compose_spec.json"),
          Path.of("/usr/local/share/fusillade/compose_spec.json"));

  /**
   * The Compose Specification's schema: the property, else the variable (either must name an
   * existing file), else the first of {@link #SCHEMA_PATHS} that exists.
   */
  static Optional<Path> specificationSchema() {
    for (String given :
        new String[] {System.getProperty(SCHEMA_PROPERTY), System.getenv(SCHEMA_VARIABLE)}) {
      if (given != null && !given.isBlank()) {
        Path path = Path.of(given);
        assertThat(path)
            .as("the Compose schema named by -D%s or %s", SCHEMA_PROPERTY, SCHEMA_VARIABLE)
            .isRegularFile();
        return Optional.of(path);
      }
    }
    return SCHEMA_PATHS.stream().filter(Files::isRegularFile).findFirst();
  }

  /**
   * Against the Compose Specification's own JSON schema, which the project does not ship (see
   * src/site/your-project.md): required on CI (CI=true, where .ci/run installs it), skipped with a
   * message elsewhere when it is not installed.
   */
  @ParameterizedTest
  @MethodSource("composeFiles")
  void isValidAgainstTheSpecificationSchema(Path file) throws IOException {
    Optional<Path> schema = specificationSchema();
    if (schema.isEmpty()) {
      String where =
          "-D"
              + SCHEMA_PROPERTY
              + ", "
              + SCHEMA_VARIABLE
              + ", "
              + SCHEMA_PATHS.stream().map(Path::toString).collect(Collectors.joining(", "));
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no Compose Specification schema ("
                + where
                + "): .ci/run extracts it from Debian's docker-compose package");
      }
      Assumptions.abort(
          "no Compose Specification schema ("
              + where
              + "): validated against the subset schema only");
    }
    ComposeSchema specification = ComposeSchema.file(schema.get());
    assertThat(specificationProblems(specification, Files.readString(file)))
        .as("%s against %s", ROOT.relativize(file), schema.get())
        .isEmpty();
  }

  /**
   * The problems of a compose file against the specification's schema, all but one: the top-level
   * {@code name} (the project name, so that each stack is its own project rather than all being
   * "compose", the directory's name) is in today's Compose Specification and Docker Compose v2, but
   * not in the schema Debian's docker-compose 1.29 ships, which refuses it. So {@code name} is
   * checked here against the specification's rule for it (lower-case letters, digits, {@code -} and
   * {@code _}, starting with a letter or digit), then removed before the rest is validated.
   */
  static List<String> specificationProblems(ComposeSchema specification, String yaml)
      throws IOException {
    JsonNode document = new YAMLMapper().readTree(yaml);
    List<String> problems = new ArrayList<>();
    if (document instanceof ObjectNode object && object.has("name")) {
      JsonNode name = object.remove("name");
      if (!name.isTextual() || !name.asText().matches("[a-z0-9][a-z0-9_-]*")) {
        problems.add("/name: " + name + " is not a Compose project name ([a-z0-9][a-z0-9_-]*)");
      }
    }
    problems.addAll(specification.problems(document));
    return problems;
  }

  /** The specification's schema refuses a broken file too: the check is not vacuous. */
  @Test
  void theSpecificationSchemaRefusesBrokenFiles() throws IOException {
    Optional<Path> schema = specificationSchema();
    Assumptions.assumeTrue(schema.isPresent(), "no Compose Specification schema installed");
    ComposeSchema specification = ComposeSchema.file(schema.get());
    assertThat(specificationProblems(specification, VALID)).isEmpty();
    assertThat(specificationProblems(specification, VALID.replace("ports:", "port:")))
        .anyMatch(p -> p.startsWith("/services/postgres") && p.contains("port"));
    assertThat(specificationProblems(specification, VALID.replace("retries: 30", "retries: [30]")))
        .anyMatch(p -> p.startsWith("/services/postgres/healthcheck/retries"));
    assertThat(specificationProblems(specification, VALID.replace("name: broken", "name: Broken")))
        .containsExactly("/name: \"Broken\" is not a Compose project name ([a-z0-9][a-z0-9_-]*)");
    assertThat(specificationProblems(specification, VALID.replace("name:", "nmae:")))
        .anyMatch(p -> p.contains("nmae"));
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

  /**
   * Images pinned and official: the same versions as the embedded servers where there is one. A
   * server's image may be replaced through a variable ({@code ${FUSILLADE_KAFKA_IMAGE:-...}}): the
   * official image is its default.
   */
  @Test
  void imagesArePinnedToTheEmbeddedServersVersions() throws IOException {
    Map<String, String> images = new TreeMap<>();
    for (Path file : composeFiles().toList()) {
      images.putAll(images(file));
    }
    assertThat(images)
        .containsEntry("postgres", "${FUSILLADE_POSTGRES_IMAGE:-postgres:18.6}")
        .containsEntry("kafka", "${FUSILLADE_KAFKA_IMAGE:-apache/kafka:4.3.1}")
        .containsEntry("kafka-2", "${FUSILLADE_KAFKA_IMAGE:-apache/kafka:4.3.1}")
        .containsEntry(
            "opensearch", "${FUSILLADE_OPENSEARCH_IMAGE:-opensearchproject/opensearch:2.19.1}");
  }

  /**
   * docker/compose/local-images.env gives every image variable of the files an image that
   * docker/image/build-local.sh builds, so that the stacks start where no registry answers.
   */
  @Test
  void everyImageVariableHasALocallyBuiltImage() throws IOException {
    Pattern variable = Pattern.compile("^\\$\\{([A-Z0-9_]+):-.*\\}$");
    Map<String, String> local = new TreeMap<>();
    for (String line : Files.readAllLines(COMPOSE.resolve("local-images.env"))) {
      if (!line.isBlank() && !line.startsWith("#")) {
        local.put(line.substring(0, line.indexOf('=')), line.substring(line.indexOf('=') + 1));
      }
    }
    String script = Files.readString(ROOT.resolve("docker/image/build-local.sh"));
    List<String> variables = new ArrayList<>();
    for (Path file : composeFiles().toList()) {
      for (String image : images(file).values()) {
        Matcher m = variable.matcher(image);
        if (m.matches()) {
          variables.add(m.group(1));
        }
      }
    }
    assertThat(variables).isNotEmpty();
    assertThat(local.keySet())
        .containsExactlyInAnyOrderElementsOf(new java.util.TreeSet<>(variables));
    for (String image : local.values()) {
      assertThat(script).as("build-local.sh builds %s", image).contains("=" + image + "\n");
    }
  }

  private static Map<String, String> images(Path file) throws IOException {
    Map<String, String> images = new TreeMap<>();
    JsonNode services = new YAMLMapper().readTree(file.toFile()).get("services");
    services
        .fields()
        .forEachRemaining(e -> images.put(e.getKey(), e.getValue().get("image").asText()));
    return images;
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
    // through a variable, the default is held to the same rule, and must be there
    assertThat(problems(VALID.replace("postgres:18.6", "${DB_IMAGE:-postgres}")))
        .anyMatch(p -> p.startsWith("/services/postgres/image"));
    assertThat(problems(VALID.replace("postgres:18.6", "${DB_IMAGE:-postgres:latest}")))
        .anyMatch(p -> p.startsWith("/services/postgres/image"));
    assertThat(problems(VALID.replace("postgres:18.6", "${DB_IMAGE}")))
        .anyMatch(p -> p.startsWith("/services/postgres/image"));
    assertThat(
            ComposeSchema.subset()
                .problems(VALID.replace("postgres:18.6", "${DB_IMAGE:-postgres:18.6}")))
        .isEmpty();
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
