package io.fusillade.outside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * This build's own artifacts, as an outside project would get them from a repository: every
 * module's pom, and the jar that {@code mvn package} left in its {@code target/}, copied into the
 * layout of a Maven local repository. Nothing is installed into the user's {@code ~/.m2}.
 *
 * <p>The jars exist when the tests run under {@code mvn verify} (the reactor packages every module
 * before the next one's tests), not under {@code mvn test}: {@link #problems()} says which are
 * missing or older than their classes, so that the test can skip rather than test stale code.
 */
final class BuildArtifacts {
  /** Modules no simulation project depends on: the command line and the benchmarks. */
  private static final Set<String> NOT_FOR_PROJECTS = Set.of("fusillade-cli", "fusillade-jmh");

  /** A module of the reactor. */
  record Module(Path directory, String groupId, String artifactId, String packaging) {
    Path pom() {
      return directory.resolve("pom.xml");
    }

    Path jar(String version) {
      return directory.resolve("target").resolve(artifactId + "-" + version + ".jar");
    }

    boolean isJar() {
      return packaging.equals("jar");
    }
  }

  private final String version;
  private final List<Module> modules;

  private BuildArtifacts(String version, List<Module> modules) {
    this.version = version;
    this.modules = modules;
  }

  /** The modules of the build whose root pom is in {@code root}, as its {@code <modules>} say. */
  static BuildArtifacts of(Path root) throws Exception {
    Element project = parse(root.resolve("pom.xml"));
    String version = text(project, "version").orElseThrow();
    List<Module> modules = new ArrayList<>();
    collect(root, project, modules);
    modules.removeIf(m -> NOT_FOR_PROJECTS.contains(m.artifactId()));
    return new BuildArtifacts(version, List.copyOf(modules));
  }

  String version() {
    return version;
  }

  List<Module> modules() {
    return modules;
  }

  /** Why the jars cannot be used (missing, or older than their classes); empty when they can. */
  List<String> problems() throws IOException {
    List<String> problems = new ArrayList<>();
    for (Module module : modules) {
      if (!module.isJar()) {
        continue;
      }
      Path jar = module.jar(version);
      if (!Files.isRegularFile(jar)) {
        problems.add(module.artifactId() + " has no " + jar.getFileName());
        continue;
      }
      FileTime packaged = Files.getLastModifiedTime(jar);
      Optional<FileTime> compiled = newestClass(module.directory().resolve("target/classes"));
      if (compiled.isPresent() && compiled.get().compareTo(packaged) > 0) {
        problems.add(module.artifactId() + "'s jar is older than its classes");
      }
    }
    return problems;
  }

  /** Copies every module's pom, and jar, into the local repository {@code repository}. */
  void copyInto(Path repository) throws IOException {
    for (Module module : modules) {
      Path directory =
          repository
              .resolve(module.groupId().replace('.', '/'))
              .resolve(module.artifactId())
              .resolve(version);
      Files.createDirectories(directory);
      String base = module.artifactId() + "-" + version;
      Files.copy(
          module.pom(), directory.resolve(base + ".pom"), StandardCopyOption.REPLACE_EXISTING);
      if (module.isJar()) {
        Files.copy(
            module.jar(version),
            directory.resolve(base + ".jar"),
            StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }

  private static void collect(Path directory, Element project, List<Module> into) throws Exception {
    String groupId =
        text(project, "groupId")
            .or(() -> child(project, "parent").flatMap(p -> text(p, "groupId")))
            .orElseThrow();
    into.add(
        new Module(
            directory,
            groupId,
            text(project, "artifactId").orElseThrow(),
            text(project, "packaging").orElse("jar")));
    Optional<Element> list = child(project, "modules");
    if (list.isEmpty()) {
      return;
    }
    for (Node n = list.get().getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element module && module.getTagName().equals("module")) {
        Path child = directory.resolve(module.getTextContent().strip());
        collect(child, parse(child.resolve("pom.xml")), into);
      }
    }
  }

  private static Optional<FileTime> newestClass(Path classes) throws IOException {
    if (!Files.isDirectory(classes)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(classes)) {
      return files
          .filter(Files::isRegularFile)
          .map(
              f -> {
                try {
                  return Files.getLastModifiedTime(f);
                } catch (IOException e) {
                  return FileTime.fromMillis(0);
                }
              })
          .max(FileTime::compareTo);
    }
  }

  private static Element parse(Path pom) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(pom.toFile())
        .getDocumentElement();
  }

  private static Optional<Element> child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return Optional.of(e);
      }
    }
    return Optional.empty();
  }

  private static Optional<String> text(Element parent, String name) {
    return child(parent, name).map(e -> e.getTextContent().strip());
  }
}
