package io.fusillade.outside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of the outside project that {@code src/site/your-project.md} shows: each fenced code
 * block right after a comment {@code <!-- outside-project: PATH -->} is the content of PATH. The
 * test writes what the page says, so that the page cannot drift from what works.
 *
 * @param files relative path to content, in the page's order
 */
record DocumentedProject(Map<String, String> files) {
  private static final Pattern BLOCK =
      Pattern.compile(
          "<!-- outside-project: (\\S+) -->\\R```[a-z]*\\R(.*?)^```$",
          Pattern.DOTALL | Pattern.MULTILINE);

  /** Reads the page's marked blocks. */
  static DocumentedProject read(Path page) throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    Matcher matcher = BLOCK.matcher(Files.readString(page));
    while (matcher.find()) {
      files.put(matcher.group(1), matcher.group(2));
    }
    return new DocumentedProject(Map.copyOf(files));
  }

  /** The content of {@code path}, which the page must show. */
  String file(String path) {
    String content = files.get(path);
    if (content == null) {
      throw new IllegalStateException(
          "your-project.md has no block marked <!-- outside-project: " + path + " -->");
    }
    return content;
  }

  /** Writes {@code path} with {@code content} under {@code directory}. */
  static void write(Path directory, String path, String content) throws IOException {
    Path file = directory.resolve(path);
    Files.createDirectories(file.getParent());
    Files.writeString(file, content);
  }
}
