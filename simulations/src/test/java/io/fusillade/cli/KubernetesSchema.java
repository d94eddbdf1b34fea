package io.fusillade.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes API's JSON schemas (draft 2020-12, one file per kind with its references in {@code
 * _definitions.json}), as the {@code kubernetes-validate} package ships them for each Kubernetes
 * version ({@code v1.34.0-local-strict}: unknown fields are errors). The project does not copy
 * them: {@code .ci/run} extracts them; elsewhere {@code -Dfusillade.k8s.schema=DIR} or {@code
 * FUSILLADE_K8S_SCHEMA} names the directory.
 */
final class KubernetesSchema {
  static final String PROPERTY = "fusillade.k8s.schema";
  static final String VARIABLE = "FUSILLADE_K8S_SCHEMA";
  static final Path INSTALLED = Path.of("/usr/local/share/fusillade/kubernetes-json-schema");

  /** The file of each kind's schema. */
  static final Map<String, String> FILES =
      Map.of(
          "ConfigMap", "configmap-v1.json",
          "PersistentVolumeClaim", "persistentvolumeclaim-v1.json",
          "Job", "job-batch-v1.json");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path directory;

  private KubernetesSchema(Path directory) {
    this.directory = directory;
  }

  /** The schemas' directory: the property, the variable, or where .ci/run installs them. */
  static Optional<KubernetesSchema> find() {
    for (String given : new String[] {System.getProperty(PROPERTY), System.getenv(VARIABLE)}) {
      if (given != null && !given.isBlank()) {
        return Optional.of(new KubernetesSchema(Path.of(given)));
      }
    }
    return Files.isRegularFile(INSTALLED.resolve("_definitions.json"))
        ? Optional.of(new KubernetesSchema(INSTALLED))
        : Optional.empty();
  }

  /**
   * The problems of one manifest against its kind's schema, one line each.
   *
   * @throws IllegalArgumentException for a kind this test knows no schema of
   */
  List<String> problems(JsonNode manifest) {
    String file = FILES.get(manifest.path("kind").asText());
    if (file == null) {
      throw new IllegalArgumentException("no schema for kind " + manifest.path("kind"));
    }
    return schema(file).validate(manifest).stream()
        .map(e -> e.getInstanceLocation() + ": " + e.getMessage())
        .toList();
  }

  /**
   * The kind's schema made standalone: the definitions it refers to ({@code
   * /api/_definitions.json#/$defs/...}) copied into its own {@code $defs}, and the references made
   * local, so that no URI needs resolving.
   */
  private Schema schema(String file) {
    try {
      ObjectNode kind = (ObjectNode) JSON.readTree(directory.resolve(file).toFile());
      JsonNode definitions = JSON.readTree(directory.resolve("_definitions.json").toFile());
      kind.remove("$id");
      kind.set("$defs", definitions.path("$defs").deepCopy());
      localize(kind);
      return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(kind);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void localize(JsonNode node) {
    if (node instanceof ObjectNode object) {
      JsonNode ref = object.get("$ref");
      if (ref != null && ref.isTextual()) {
        String text = ref.asText();
        int hash = text.indexOf('#');
        if (hash > 0) {
          object.set("$ref", new TextNode(text.substring(hash)));
        }
      }
      for (Iterator<JsonNode> it = object.elements(); it.hasNext(); ) {
        localize(it.next());
      }
    } else if (node.isArray()) {
      node.forEach(KubernetesSchema::localize);
    }
  }
}
