package io.fusillade;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.PackageMatcher;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module graph of src/site/architecture.md, checked on the compiled main classes of every
 * module (this module depends on all of them). Maven already refuses an import of a module that a
 * pom does not declare; this test also refuses a declared dependency that points the wrong way, and
 * package tangles inside one module.
 */
class ArchitectureTest {
  private static JavaClasses classes;

  /**
   * Every module's main classes: directories under {@code mvn test}, jars under {@code mvn verify}
   * (an empty layer fails the rule, so a class path without a module cannot pass unnoticed).
   */
  @BeforeAll
  static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.fusillade");
  }

  /**
   * The layers, bottom first: each module's packages. {@link #everyPackageIsInALayer} holds that a
   * new package cannot escape the rules by belonging to none.
   */
  private static final Map<String, List<String>> LAYERS = layers();

  private static Map<String, List<String>> layers() {
    Map<String, List<String>> layers = new LinkedHashMap<>();
    layers.put("record", List.of("io.fusillade", "io.fusillade.record.."));
    layers.put("telemetry", List.of("io.fusillade.system..", "io.fusillade.health.."));
    layers.put(
        "control",
        List.of(
            "io.fusillade.plan..",
            "io.fusillade.limit..",
            "io.fusillade.fault..",
            "io.fusillade.starve..",
            "io.fusillade.abort..",
            "io.fusillade.progress.."));
    layers.put("gen", List.of("io.fusillade.gen.."));
    layers.put("sql", List.of("io.fusillade.sql.."));
    layers.put("topic", List.of("io.fusillade.topic.."));
    layers.put("logs", List.of("io.fusillade.logs.."));
    layers.put("workload", List.of("io.fusillade.workload.."));
    layers.put("reports", List.of("io.fusillade.reports.."));
    layers.put("local", List.of("io.fusillade.local.."));
    layers.put("containers", List.of("io.fusillade.containers.."));
    layers.put(
        "gatling",
        List.of(
            "io.fusillade.gatling",
            "io.fusillade.gatling.metrics..",
            "io.fusillade.gatling.check.."));
    layers.put("gatling-sql", List.of("io.fusillade.gatling.sql.."));
    layers.put("gatling-kafka", List.of("io.fusillade.gatling.kafka.."));
    layers.put("gatling-logs", List.of("io.fusillade.gatling.logs.."));
    layers.put(
        "cli", List.of("io.fusillade.cli..", "io.fusillade.scenarios..", "io.fusillade.k8s.."));
    return layers;
  }

  @Test
  void eachModuleUsesOnlyTheModulesBelowIt() {
    Architectures.LayeredArchitecture architecture =
        layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (Map.Entry<String, List<String>> layer : LAYERS.entrySet()) {
      architecture =
          architecture.layer(layer.getKey()).definedBy(layer.getValue().toArray(String[]::new));
    }
    architecture
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("gatling-sql")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling-kafka")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling-logs")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling")
        .mayOnlyBeAccessedByLayers("gatling-sql", "gatling-kafka", "gatling-logs", "cli")
        .whereLayer("reports")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("containers")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("local")
        .mayOnlyBeAccessedByLayers("containers", "cli")
        .whereLayer("workload")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("sql")
        .mayOnlyBeAccessedByLayers("workload", "gatling-sql", "cli")
        .whereLayer("topic")
        .mayOnlyBeAccessedByLayers("gatling-kafka", "cli")
        .whereLayer("logs")
        .mayOnlyBeAccessedByLayers("gatling-logs", "cli")
        .whereLayer("gen")
        .mayOnlyBeAccessedByLayers(
            "sql",
            "topic",
            "logs",
            "workload",
            "gatling-sql",
            "gatling-kafka",
            "gatling-logs",
            "cli")
        .whereLayer("control")
        .mayOnlyBeAccessedByLayers(
            "workload", "reports", "gatling", "gatling-sql", "gatling-kafka", "gatling-logs", "cli")
        .whereLayer("telemetry")
        .mayOnlyBeAccessedByLayers(
            "control",
            "sql",
            "topic",
            "logs",
            "workload",
            "reports",
            "gatling",
            "gatling-sql",
            "gatling-kafka",
            "gatling-logs",
            "cli")
        .check(classes);
  }

  /** A package that no layer names would escape every rule above. */
  @Test
  void everyPackageIsInALayer() {
    Set<String> unplaced = new TreeSet<>();
    for (JavaClass type : classes) {
      String name = type.getPackageName();
      boolean placed =
          LAYERS.values().stream()
              .flatMap(List::stream)
              .anyMatch(pattern -> PackageMatcher.of(pattern).matches(name));
      if (!placed) {
        unplaced.add(name);
      }
    }
    assertThat(unplaced).as("main packages in no layer of ArchitectureTest").isEmpty();
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.fusillade.(*)..").should().beFreeOfCycles().check(classes);
  }
}
