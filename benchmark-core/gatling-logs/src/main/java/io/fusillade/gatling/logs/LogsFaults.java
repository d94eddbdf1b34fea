package io.fusillade.gatling.logs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fusillade.record.Injected;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code _bulk} requests that fail on purpose on an Elasticsearch-compatible store (fault
 * injection), each sent as request {@code injected <kind>} ({@link Injected}): the run's error and
 * latency checks, its abort rules and a limit search leave them out unless a check names them, and
 * the report shows them beside the good requests. Mix them into a scenario by share:
 *
 * <pre>{@code
 * randomSwitch().on(
 *     percent(1).then(exec(LogsDsl.injected(LogsFaults.MAPPING_VIOLATION))),
 *     percent(99).then(exec(logs("bulk").bulk(5_000))))
 * }</pre>
 *
 * A workload file says the same with {@code injected: [{kind: mapping violation, share: 1%}]}.
 */
public final class LogsFaults {
  /**
   * One document whose typed field (a number, a date, an IP address) holds text: the bulk is
   * answered 200 with the item failed ({@code mapper_parsing_exception} or {@code
   * document_parsing_exception}). The index must be created with a mapping that has such a field.
   */
  public static final String MAPPING_VIOLATION = "mapping violation";

  /**
   * A body whose action line names no action ({@code {"indx":{}}}): the whole request is refused,
   * HTTP 400 ({@code illegal_argument_exception}), before any document is read. (An action line cut
   * short, <code>{"index":{}</code>, is read leniently by OpenSearch and stores its document.)
   */
  public static final String MALFORMED_BULK = "malformed bulk";

  /** Every kind. */
  public static final List<String> KINDS = List.of(MAPPING_VIOLATION, MALFORMED_BULK);

  /** The field types whose parser refuses text, and the text each is given. */
  private static final Map<String, String> REFUSE_TEXT =
      Map.of(
          "integer", "not a number",
          "long", "not a number",
          "short", "not a number",
          "byte", "not a number",
          "double", "not a number",
          "float", "not a number",
          "date", "not a date",
          "ip", "not an address");

  private static final Set<String> KNOWN = Set.copyOf(KINDS);
  private static final ObjectMapper JSON = new ObjectMapper();

  private LogsFaults() {}

  /**
   * The {@code _bulk} body of a kind.
   *
   * @param kind one of {@link #KINDS}
   * @param mappings the index's {@code mappings} object as JSON, or null when unknown
   * @return the NDJSON body, ending with a newline
   * @throws IllegalArgumentException for an unknown kind, or a mapping violation without a typed
   *     field to violate
   */
  public static String body(String kind, String mappings) {
    requireKind(kind);
    if (MALFORMED_BULK.equals(kind)) {
      return "{\"indx\":{}}\n{\"message\":\"fusillade injected\"}\n";
    }
    Map.Entry<String, String> field = typedField(mappings);
    if (field == null) {
      throw new IllegalArgumentException(
          "an injected mapping violation needs an index created with a mapping that has a"
              + " number, date or ip field (mapping web-logs or k8s-logs-index), so that the"
              + " document fails without changing the index's mapping");
    }
    return "{\"index\":{}}\n{\""
        + field.getKey()
        + "\":\""
        + REFUSE_TEXT.get(field.getValue())
        + "\"}\n";
  }

  /** Fails for a kind that is not one of {@link #KINDS}. */
  static void requireKind(String kind) {
    if (!KNOWN.contains(kind)) {
      throw new IllegalArgumentException(
          "no injected kind \"" + kind + "\": one of " + String.join(", ", KINDS));
    }
  }

  /** The first top-level field of a type that refuses text, and its type; null for none. */
  private static Map.Entry<String, String> typedField(String mappings) {
    if (mappings == null) {
      return null;
    }
    JsonNode properties;
    try {
      properties = JSON.readTree(mappings).path("properties");
    } catch (IOException e) {
      return null;
    }
    Iterator<Map.Entry<String, JsonNode>> fields = properties.fields();
    while (fields.hasNext()) {
      Map.Entry<String, JsonNode> f = fields.next();
      String type = f.getValue().path("type").asText("");
      if (REFUSE_TEXT.containsKey(type)) {
        return Map.entry(f.getKey(), type);
      }
    }
    return null;
  }
}
