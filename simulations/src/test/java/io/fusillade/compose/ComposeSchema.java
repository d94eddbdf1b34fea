package io.fusillade.compose;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.networknt.schema.dialect.Dialect;
import com.networknt.schema.dialect.Draft201909;
import com.networknt.schema.dialect.Draft7;
import com.networknt.schema.keyword.NonValidationKeyword;
import com.networknt.schema.keyword.UnknownKeywordFactory;
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
          path.toString(), specificationRegistry().getSchema(location, in, InputFormat.JSON));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static SchemaRegistry registry() {
    // Both schemas are draft 7; the dialect is also the default for one that does not say.
    return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7);
  }

  /**
   * The registry for the Compose Specification's schema. The one Debian's docker-compose ships says
   * draft 2019-09 but still uses draft 4's {@code id} keyword (the draft-6+ {@code $id}'s
   * predecessor). The validator knows {@code id} as a keyword without a validator in 2019-09 and
   * refuses the schema ("No suitable validator for id"); its unknown-keyword handling does not
   * apply, since {@code id} is not unknown to it. So 2019-09 here is the library's own dialect with
   * {@code id} declared an annotation that validates nothing, as any keyword a draft does not
   * define is; the schema file stays as shipped. Draft 7 stays the default for a schema that names
   * no dialect.
   */
  private static SchemaRegistry specificationRegistry() {
    Dialect draft201909 =
        Dialect.builder(Draft201909.getInstance())
            .keyword(new NonValidationKeyword("id"))
            .unknownKeywordFactory(UnknownKeywordFactory.getInstance())
            .build();
    return SchemaRegistry.withDialects(
        List.of(Draft7.getInstance(), draft201909),
        builder -> builder.defaultDialectId(Draft7.getInstance().getId()));
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
    return problems(document);
  }

  /** The problems of a parsed compose file, one line each; empty when it is valid. */
  List<String> problems(JsonNode document) {
    return schema.validate(document).stream().map(ComposeSchema::line).toList();
  }

  private static String line(Error error) {
    return error.getInstanceLocation() + ": " + error.getMessage();
  }
}
