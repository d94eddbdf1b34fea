package io.fusillade.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;

/**
 * seq-db's mapping file written from an index's Elasticsearch mapping ({@link
 * IndexSpec#mappings()}), so that one description of the fields serves both stores:
 *
 * <pre>{@code
 * mapping-list:
 *   - name: "request"
 *     type: "text"
 *   - name: "status"
 *     type: "keyword"
 * }</pre>
 *
 * <p>{@code text} stays {@code text}; every other type ({@code keyword}, {@code integer}, {@code
 * long}, {@code ip}, {@code date}...) becomes {@code keyword}, since seq-db indexes a value as its
 * token and compares tokens as numbers in a range query ({@code size:[100, 500]}); an {@code
 * object} with {@code properties} becomes seq-db's {@code object} with its own list. The
 * time-to-searchable probe's field ({@link SearchabilityProbe#MARKER_FIELD}) is added as a keyword.
 * An index without a mapping (preset {@code none}) has no file: seq-db then indexes every field as
 * a keyword ({@code --mapping auto}).
 */
public final class SeqDbMappings {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SeqDbMappings() {}

  /**
   * @param spec the index
   * @return the mapping file's content, or null for {@code --mapping auto}
   */
  public static String yaml(IndexSpec spec) {
    if (spec.mappings() == null) {
      return null;
    }
    JsonNode mappings;
    try {
      mappings = MAPPER.readTree(spec.mappings());
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable mapping of index " + spec.name(), e);
    }
    StringBuilder yaml = new StringBuilder("mapping-list:\n");
    write(mappings.path("properties"), "", yaml);
    if (!mappings.path("properties").has(SearchabilityProbe.MARKER_FIELD)) {
      field(SearchabilityProbe.MARKER_FIELD, "keyword", "", yaml);
    }
    return yaml.toString();
  }

  private static void write(JsonNode properties, String indent, StringBuilder yaml) {
    Iterator<Map.Entry<String, JsonNode>> fields = properties.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> field = fields.next();
      JsonNode definition = field.getValue();
      if (definition.has("properties")) {
        field(field.getKey(), "object", indent, yaml);
        yaml.append(indent).append("    mapping-list:\n");
        write(definition.path("properties"), indent + "    ", yaml);
      } else {
        field(field.getKey(), seqDbType(definition.path("type").asText("keyword")), indent, yaml);
      }
    }
  }

  private static void field(String name, String type, String indent, StringBuilder yaml) {
    yaml.append(indent)
        .append("  - name: ")
        .append(SeqDbQuery.quote(name))
        .append('\n')
        .append(indent)
        .append("    type: ")
        .append(type)
        .append('\n');
  }

  /** The seq-db type of an Elasticsearch field type. */
  static String seqDbType(String elasticsearchType) {
    return switch (elasticsearchType) {
      case "text", "match_only_text" -> "text";
      case "object", "nested" -> "object";
      default -> "keyword";
    };
  }
}
