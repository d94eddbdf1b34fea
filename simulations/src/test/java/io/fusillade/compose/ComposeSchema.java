package io.fusillade.compose;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A JSON Schema (draft 7) that compose files are validated against: each problem as one line naming
 * where it is in the file ({@code /services/postgres/ports/0}) and what is wrong.
 *
 * @param name where the schema came from, for messages
 * @param schema the loaded schema
 */
record ComposeSchema(String name, Schema schema) {
  /** Fusillade's subset of the Compose file, in the test resources. */
  static final String SUBSET = "/compose/fusillade-compose.schema.json";

  private static final YAMLMapper YAML = new YAMLMapper();

  /** The schema of Fusillade's compose files (see {@link #SUBSET}). */
  static ComposeSchema subset() {
    try (InputStream in = ComposeSchema.class.getResourceAsStream(SUBSET)) {
      if (in == null) {
        throw new IllegalStateException("no " + SUBSET + " on the test class path");
      }
      return new ComposeSchema(SUBSET, registry().getSchema(in, InputFormat.JSON));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A schema file, such as the Compose Specification's own {@code compose-spec.json}. */
  static ComposeSchema file(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      // Its location as base: the specification's schema has a relative $id (compose_spec.json).
      SchemaLocation location = SchemaLocation.of(path.toAbsolutePath().toUri().toString());
      return new ComposeSchema(
          path.toString(), registry().getSchema(location, in, InputFormat.JSON));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SchemaRegistry registry() {
    // Both schemas are draft 7; the dialect is also the default for one that does not say.
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);
  }

  /** The problems of a compose file's YAML text, one line each; empty when it is valid. */
  List<String> problems(String yaml) {
    JsonNode document;
    try {
      document = YAML.readTree(yaml);
    } catch (IOException e) {
      return List.of("not YAML: " + e.getMessage().lines().findFirst().orElse(""));
    }
    if (document == null || document.isMissingNode()) {
      return List.of("empty document");
    }
    return schema.validate(document).stream().map(ComposeSchema::line).toList();
  }

  private static String line(Error error) {
    return error.getInstanceLocation() + ": " + error.getMessage();
  }
}
