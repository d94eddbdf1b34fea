package io.fusillade;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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

  @Test
  void eachModuleUsesOnlyTheModulesBelowIt() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("record")
        .definedBy(
            "io.fusillade",
            "io.fusillade.record..",
            "io.fusillade.abort..",
            "io.fusillade.health..",
            "io.fusillade.progress..",
            "io.fusillade.system..")
        .layer("gen")
        .definedBy("io.fusillade.gen..")
        .layer("sql")
        .definedBy("io.fusillade.sql..")
        .layer("topic")
        .definedBy("io.fusillade.topic..")
        .layer("logs")
        .definedBy("io.fusillade.logs..")
        .layer("workload")
        .definedBy("io.fusillade.workload..")
        .layer("reports")
        .definedBy("io.fusillade.reports..")
        .layer("local")
        .definedBy(
            JavaClass.Predicates.resideInAPackage("io.fusillade.local..")
                .and(DescribedPredicate.not(inModule("local-seqdb"))))
        .layer("local-seqdb")
        .definedBy(inModule("local-seqdb"))
        .layer("containers")
        .definedBy("io.fusillade.containers..")
        .layer("gatling")
        .definedBy("io.fusillade.gatling", "io.fusillade.gatling.metrics")
        .layer("gatling-sql")
        .definedBy("io.fusillade.gatling.sql..")
        .layer("gatling-topic")
        .definedBy("io.fusillade.gatling.topic..")
        .layer("gatling-logs")
        .definedBy("io.fusillade.gatling.logs..")
        .layer("cli")
        .definedBy("io.fusillade.cli..", "io.fusillade.scenarios..")
        .whereLayer("cli")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("gatling-sql")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling-topic")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling-logs")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("gatling")
        .mayOnlyBeAccessedByLayers("gatling-sql", "gatling-topic", "gatling-logs", "cli")
        .whereLayer("reports")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("containers")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("local")
        .mayOnlyBeAccessedByLayers("containers", "local-seqdb", "cli")
        .whereLayer("local-seqdb")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("workload")
        .mayOnlyBeAccessedByLayers("cli")
        .whereLayer("sql")
        .mayOnlyBeAccessedByLayers("workload", "gatling-sql", "cli")
        .whereLayer("topic")
        .mayOnlyBeAccessedByLayers("gatling-topic", "cli")
        .whereLayer("logs")
        .mayOnlyBeAccessedByLayers("gatling-logs", "cli")
        .whereLayer("gen")
        .mayOnlyBeAccessedByLayers(
            "sql",
            "topic",
            "logs",
            "workload",
            "gatling-sql",
            "gatling-topic",
            "gatling-logs",
            "cli")
        .check(classes);
  }

  /**
   * The classes of one module of the {@code io.fusillade.local} package, which several local-server
   * modules share: by where they were loaded from ({@code docker/local-seqdb/target/classes}, or
   * its jar).
   */
  private static DescribedPredicate<JavaClass> inModule(String module) {
    return DescribedPredicate.describe(
        "in module " + module,
        c ->
            c.getSource()
                .map(s -> s.getUri().toString().contains(module))
                .orElse(false));
  }

  @Test
  void theEmbeddedSeqDbIsItsOwnModule() {
    // an empty layer passes any rule: the seq-db module's classes must be there to be checked
    assertThat(classes.that(inModule("local-seqdb"))).isNotEmpty();
  }

  @Test
  void noPackageCycles() {
    slices().matching("io.fusillade.(*)..").should().beFreeOfCycles().check(classes);
  }
}
