package io.fusillade.outside;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java of the pages compiles against the API as it is, in this JVM, in a few seconds: the
 * classes of {@code your-project.md} (which {@link OutsideProjectTest} also runs, slowly, in a
 * project of their own) and the snippets marked {@code <!-- compiled: snippet -->} in {@code
 * simulations.md}, {@code topics.md} and {@code your-project.md}, each wrapped in a method with the
 * DSLs' static imports. A renamed method fails here, naming the page and the line of the snippet.
 */
class DocExamplesTest {
  private static final Path SITE = Path.of("..", "src", "site");
  private static final Pattern SNIPPET =
      Pattern.compile(
          "<!-- compiled: snippet -->\\R```java\\R(.*?)^```$", Pattern.DOTALL | Pattern.MULTILINE);
  private static final String IMPORTS =
      String.join(
          "\n",
          "import static io.gatling.javaapi.core.CoreDsl.*;",
          "import static io.fusillade.gatling.sql.SqlDsl.*;",
          "import static io.fusillade.gatling.logs.LogsDsl.*;",
          "import static io.fusillade.gatling.logs.LogsDsl.jsonPath;",
          "import static io.fusillade.gatling.logs.LogsDsl.jmesPath;",
          "import static io.fusillade.gatling.kafka.KafkaDsl.*;",
          "import io.fusillade.gatling.*;",
          "import io.fusillade.gatling.kafka.KafkaComponents;",
          "import io.gatling.javaapi.core.*;",
          "import java.time.Duration;",
          "import java.util.*;");

  @TempDir Path classes;

  @Test
  void theSnippetsOfSimulationsMdCompile() throws IOException {
    List<JavaFileObject> sources = snippets("simulations.md");
    assertThat(sources).as("snippets marked in simulations.md").hasSizeGreaterThanOrEqualTo(3);
    assertThat(compile(sources)).isEmpty();
  }

  @Test
  void theSnippetsOfTopicsMdAndYourProjectMdCompile() throws IOException {
    List<JavaFileObject> sources = new ArrayList<>();
    for (String page : List.of("topics.md", "your-project.md")) {
      List<JavaFileObject> found = snippets(page);
      assertThat(found).as("snippets marked in " + page).isNotEmpty();
      sources.addAll(found);
    }
    assertThat(compile(sources)).isEmpty();
  }

  @Test
  void theSimulationsOfYourProjectMdCompile() throws IOException {
    DocumentedProject page = DocumentedProject.read(SITE.resolve("your-project.md"));
    List<JavaFileObject> sources = new ArrayList<>();
    for (Map.Entry<String, String> file : page.files().entrySet()) {
      if (file.getKey().endsWith(".java")) {
        sources.add(source(file.getKey(), file.getValue()));
      }
    }
    assertThat(sources).as("the page's simulations").hasSize(3);
    assertThat(compile(sources)).isEmpty();
  }

  private static List<JavaFileObject> snippets(String page) throws IOException {
    String text = Files.readString(SITE.resolve(page));
    Matcher m = SNIPPET.matcher(text);
    List<JavaFileObject> sources = new ArrayList<>();
    while (m.find()) {
      int line = text.substring(0, m.start(1)).split("\n", -1).length;
      String name = "Snippet" + page.replaceAll("[^a-z]", "") + line;
      String code =
          "package docs;\n"
              + IMPORTS
              + "\n// "
              + page
              + " line "
              + line
              + "\nclass "
              + name
              + " {\n  void example() throws Exception {\n"
              + m.group(1)
              + "\n  }\n}\n";
      sources.add(source("docs/" + name + ".java", code));
    }
    return sources;
  }

  private static JavaFileObject source(String path, String code) {
    return new SimpleJavaFileObject(URI.create("string:///" + path), JavaFileObject.Kind.SOURCE) {
      @Override
      public CharSequence getCharContent(boolean ignoreEncodingErrors) {
        return code;
      }
    };
  }

  /** The compiler's errors, empty when it compiled. */
  private String compile(List<JavaFileObject> sources) {
    JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
    StringWriter errors = new StringWriter();
    List<String> options =
        List.of(
            "-proc:none",
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            classes.toString());
    boolean ok = compiler.getTask(errors, null, null, options, null, sources).call();
    return ok ? "" : errors.toString();
  }
}
