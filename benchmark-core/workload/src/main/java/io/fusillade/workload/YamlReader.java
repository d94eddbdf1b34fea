package io.fusillade.workload;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the first YAML document of a text into a {@link YamlNode} tree, walking Jackson's YAML
 * tokens. Syntax errors and duplicate keys become {@link Problem}s, never exceptions.
 */
final class YamlReader {

  private static final YAMLFactory FACTORY = new YAMLFactory();

  private final String file;
  private final List<Problem> problems;
  private JsonParser parser;

  YamlReader(String file, List<Problem> problems) {
    this.file = file;
    this.problems = problems;
  }

  /**
   * @param text the YAML text
   * @return the root node, or empty if the text is empty or not YAML (a problem is recorded)
   */
  Optional<YamlNode> read(String text) {
    try (JsonParser p = FACTORY.createParser(text)) {
      parser = p;
      JsonToken first = p.nextToken();
      if (first == null) {
        problems.add(new Problem(new Location(file, 1, 1), "", "the file is empty"));
        return Optional.empty();
      }
      return Optional.of(node(first));
    } catch (JsonProcessingException e) {
      problems.add(new Problem(errorLocation(e), "", "not valid YAML: " + reason(e)));
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      // SnakeYAML reports some malformed input (bad characters, encodings) as runtime errors.
      problems.add(
          new Problem(
              new Location(file, 1, 1), "", "not valid YAML: " + firstLine(e.getMessage())));
      return Optional.empty();
    }
  }

  private YamlNode node(JsonToken token) throws IOException {
    Location at = location(parser.currentTokenLocation());
    switch (token) {
      case START_OBJECT -> {
        List<YamlNode.Entry> entries = new ArrayList<>();
        Map<String, Location> seen = new HashMap<>();
        JsonToken t;
        while ((t = parser.nextToken()) == JsonToken.FIELD_NAME) {
          String key = parser.currentName();
          Location keyAt = location(parser.currentTokenLocation());
          YamlNode value = node(parser.nextToken());
          Location first = seen.putIfAbsent(key, keyAt);
          if (first != null) {
            problems.add(
                new Problem(
                    keyAt, "", "duplicate key '" + key + "' (first at line " + first.line() + ")"));
          } else {
            entries.add(new YamlNode.Entry(key, keyAt, value));
          }
        }
        return new YamlNode.MapNode(at, List.copyOf(entries));
      }
      case START_ARRAY -> {
        List<YamlNode> items = new ArrayList<>();
        JsonToken t;
        while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
          items.add(node(t));
        }
        return new YamlNode.ListNode(at, List.copyOf(items));
      }
      default -> {
        String text = token == JsonToken.VALUE_NULL ? "" : parser.getText();
        return new YamlNode.Scalar(at, text, token);
      }
    }
  }

  private Location location(JsonLocation l) {
    if (l == null) {
      return new Location(file, 1, 1);
    }
    return new Location(file, Math.max(1, l.getLineNr()), Math.max(1, l.getColumnNr()));
  }

  /** SnakeYAML knows where the offending token is; Jackson reports where its context began. */
  private Location errorLocation(JsonProcessingException e) {
    if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked
        && marked.getProblemMark() != null) {
      return new Location(
          file, marked.getProblemMark().getLine() + 1, marked.getProblemMark().getColumn() + 1);
    }
    return location(e.getLocation());
  }

  /** SnakeYAML's message spans several lines with a source excerpt; keep the problem only. */
  private static String reason(JsonProcessingException e) {
    Throwable cause = e.getCause();
    if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked) {
      String context = marked.getContext();
      String problem = marked.getProblem();
      return problem == null
          ? firstLine(context)
          : problem + (context == null ? "" : " " + context);
    }
    return firstLine(e.getOriginalMessage());
  }

  private static String firstLine(String message) {
    if (message == null || message.isBlank()) {
      return "unreadable input";
    }
    return message.strip().lines().findFirst().orElse(message).strip();
  }
}
