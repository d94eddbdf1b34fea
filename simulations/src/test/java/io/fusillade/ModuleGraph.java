package io.fusillade;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The module graph of {@code src/site/architecture.md}, drawn from the poms: every Fusillade module
 * and its main (not test) dependencies on the others, each edge kept only when no longer path
 * implies it (the transitive reduction), so the picture shows the layers and nothing a reader could
 * infer. {@code ModuleGraphTest} holds that {@code src/site/architecture.dot} is what this writes;
 * run {@link #main} to write it again, then {@code dot -Tsvg architecture.dot -o architecture.svg}.
 */
public final class ModuleGraph {
  private ModuleGraph() {}

  /** Writes {@code src/site/architecture.dot} from the poms under the project's root. */
  public static void main(String[] args) throws IOException {
    Path root = args.length > 0 ? Path.of(args[0]) : root();
    Files.writeString(root.resolve("src/site/architecture.dot"), dot(root));
  }

  /** The project's root: the first directory up from here with {@code src/site}. */
  static Path root() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("src/site"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("no src/site above " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  /** The DOT text of the graph of the modules under {@code root}. */
  static String dot(Path root) {
    Map<String, Set<String>> edges = new TreeMap<>();
    Map<String, Set<String>> runtime = new TreeMap<>();
    Map<String, String> directories = new TreeMap<>();
    for (Path pom : poms(root)) {
      Document doc = parse(pom);
      Element project = doc.getDocumentElement();
      String artifact = text(project, "artifactId");
      if (!artifact.startsWith("fusillade-") || text(project, "packaging").equals("pom")) {
        continue; // the parents and the BOM
      }
      String name = artifact.substring("fusillade-".length());
      directories.put(name, root.relativize(pom.getParent()).toString());
      Set<String> uses = new LinkedHashSet<>();
      Set<String> atRuntime = new LinkedHashSet<>();
      for (Element dependency : dependencies(project)) {
        String id = text(dependency, "artifactId");
        String scope = text(dependency, "scope");
        if (text(dependency, "groupId").equals("io.fusillade")
            && id.startsWith("fusillade-")
            && !scope.equals("test")
            && !text(dependency, "type").equals("pom")) {
          (scope.equals("runtime") ? atRuntime : uses).add(id.substring("fusillade-".length()));
        }
      }
      edges.put(name, uses);
      runtime.put(name, atRuntime);
    }
    Map<String, Set<String>> reduced = reduce(edges);
    StringBuilder out = new StringBuilder();
    out.append(
            "// The module graph of architecture.md, written by ModuleGraph from the poms (main\n")
        .append(
            "// dependencies, transitive reduction). Regenerate: run io.fusillade.ModuleGraph\n")
        .append("// (simulations' tests), then dot -Tsvg architecture.dot -o architecture.svg\n")
        .append("digraph fusillade {\n")
        .append("  rankdir=TB;\n")
        .append("  node [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f6fa\",")
        .append(" fontname=\"Helvetica\", fontsize=11];\n")
        .append("  edge [color=\"#555555\", arrowsize=0.7];\n");
    directories.forEach(
        (name, directory) ->
            out.append("  \"")
                .append(name)
                .append("\" [label=\"")
                .append(name)
                .append("\\n")
                .append(directory)
                .append("\"")
                .append(name.equals("cli") ? ", fillcolor=\"#fde9d9\"" : "")
                .append("];\n"));
    reduced.forEach(
        (from, tos) ->
            tos.forEach(
                to ->
                    out.append("  \"").append(from).append("\" -> \"").append(to).append("\";\n")));
    // Found at run time only (ServiceLoader): no compile dependency, drawn apart.
    runtime.forEach(
        (from, tos) ->
            tos.forEach(
                to ->
                    out.append("  \"")
                        .append(from)
                        .append("\" -> \"")
                        .append(to)
                        .append("\" [style=dashed, label=\" runtime\", fontsize=9];\n")));
    out.append("}\n");
    return out.toString();
  }

  /** The edges that no path of two or more edges implies. */
  static Map<String, Set<String>> reduce(Map<String, Set<String>> edges) {
    Map<String, Set<String>> reduced = new TreeMap<>();
    edges.forEach(
        (from, tos) -> {
          Set<String> kept = new java.util.TreeSet<>();
          for (String to : tos) {
            boolean implied = false;
            for (String via : tos) {
              if (!via.equals(to) && reaches(edges, via, to, new LinkedHashSet<>())) {
                implied = true;
                break;
              }
            }
            if (!implied) {
              kept.add(to);
            }
          }
          reduced.put(from, kept);
        });
    return reduced;
  }

  private static boolean reaches(
      Map<String, Set<String>> edges, String from, String to, Set<String> seen) {
    if (!seen.add(from)) {
      return false;
    }
    for (String next : edges.getOrDefault(from, Set.of())) {
      if (next.equals(to) || reaches(edges, next, to, seen)) {
        return true;
      }
    }
    return false;
  }

  private static List<Path> poms(Path root) {
    try (Stream<Path> walk = Files.walk(root, 3)) {
      return walk.filter(p -> p.getFileName().toString().equals("pom.xml"))
          .filter(p -> !p.toString().contains("/target/"))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Document parse(Path pom) {
    try {
      return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    } catch (Exception e) {
      throw new IllegalStateException("cannot read " + pom + ": " + e, e);
    }
  }

  /** The project's {@code <dependencies>} (not those of its dependency management). */
  private static List<Element> dependencies(Element project) {
    List<Element> out = new ArrayList<>();
    for (Node n = project.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals("dependencies")) {
        NodeList list = e.getElementsByTagName("dependency");
        for (int i = 0; i < list.getLength(); i++) {
          out.add((Element) list.item(i));
        }
      }
    }
    return out;
  }

  /** The text of a direct child element, or "". */
  private static String text(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e.getTextContent().strip();
      }
    }
    return "";
  }

  static Map<String, Set<String>> edgesForTest(Map<String, Set<String>> edges) {
    return reduce(new LinkedHashMap<>(edges));
  }
}
