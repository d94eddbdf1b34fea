package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonToken;
import java.util.List;

/**
 * A YAML document as a tree that remembers where each node came from, so that validation can name
 * line and column. Jackson's own {@code JsonNode} forgets positions, which is why the loader builds
 * this tree from the parser's tokens instead.
 */
sealed interface YamlNode {

  /**
   * @return where the node starts
   */
  Location location();

  /**
   * @return how the node is called in messages ("a mapping", "the string \"x\"")
   */
  String describe();

  /** One key of a mapping. */
  record Entry(String key, Location keyLocation, YamlNode value) {}

  /** A mapping; keys keep their order. */
  record MapNode(Location location, List<Entry> entries) implements YamlNode {
    @Override
    public String describe() {
      return "a mapping";
    }
  }

  /** A sequence. */
  record ListNode(Location location, List<YamlNode> items) implements YamlNode {
    @Override
    public String describe() {
      return "a list";
    }
  }

  /**
   * A scalar, with the token kind the YAML resolver gave it (string, int, float, boolean, null).
   */
  record Scalar(Location location, String text, JsonToken token) implements YamlNode {
    @Override
    public String describe() {
      return switch (token) {
        case VALUE_STRING -> "the string \"" + text + "\"";
        case VALUE_NUMBER_INT -> "the integer " + text;
        case VALUE_NUMBER_FLOAT -> "the number " + text;
        case VALUE_TRUE, VALUE_FALSE -> "the boolean " + text;
        case VALUE_NULL -> "nothing (null)";
        default -> text;
      };
    }

    /**
     * @return whether the value is missing ({@code key:} or {@code key: null})
     */
    boolean isNull() {
      return token == JsonToken.VALUE_NULL;
    }
  }
}
