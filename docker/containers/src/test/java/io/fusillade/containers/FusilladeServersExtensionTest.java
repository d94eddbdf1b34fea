package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.fusillade.local.PostgresServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * The extension as a test class sees it: each case runs a small annotated class through the JUnit
 * Platform and looks at what happened before, during and after it.
 */
class FusilladeServersExtensionTest {
  private static final String SELF_TEST = "fusillade.extension.selfTest";

  /** What the inner class saw, for the outer test to check. */
  static final List<String> seen = new ArrayList<>();

  @BeforeEach
  void enableInnerClasses() {
    seen.clear();
    System.setProperty(SELF_TEST, "true");
  }

  @AfterEach
  void disableInnerClasses() {
    System.clearProperty(SELF_TEST);
    System.clearProperty(Servers.PROPERTY);
    System.clearProperty("sql.url");
  }

  /** Runs only when launched by the test below. */
  @FusilladeServers(postgres = true)
  @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
  static class DeclaresPostgres {
    @Test
    void getsItAsAParameterAndAProperty(PostgresServer db) throws Exception {
      seen.add(db.jdbcUrl());
      seen.add(System.getProperty(FusilladeServers.POSTGRES_URL));
      seen.add(System.getProperty("sql.url"));
      seen.add(System.getProperty("sql.user"));
      try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), "");
          ResultSet rows = connection.createStatement().executeQuery("select 6 * 7")) {
        rows.next();
        seen.add(rows.getString(1));
      }
    }
  }

  /** Runs only when launched by the test below. */
  @FusilladeServers(postgres = true)
  @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
  static class HasANestedClass {
    @Test
    void outer(PostgresServer db) {
      seen.add("outer " + db.jdbcUrl());
    }

    @Nested
    class Inner {
      @Test
      void inner(PostgresServer db) {
        seen.add("inner " + db.jdbcUrl());
      }
    }

    @Test
    void outerAgain(PostgresServer db) {
      seen.add("outer " + db.jdbcUrl());
    }
  }

  /** Runs only when launched by the test below: one test passes, the other fails. */
  @FusilladeServers(postgres = true)
  @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
  @TestMethodOrder(MethodOrderer.MethodName.class)
  static class OneOfItsTestsFails {
    @Test
    void a_connects(PostgresServer db) throws Exception {
      seen.add(db.getClass().getSimpleName());
      seen.add(db.jdbcUrl());
      try (Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.user(), "");
          ResultSet rows = connection.createStatement().executeQuery("select 6 * 7")) {
        rows.next();
        seen.add(rows.getString(1));
      }
    }

    @Test
    void b_fails(PostgresServer db) {
      throw new AssertionError("this test fails on purpose");
    }
  }

  /** Runs only when launched by the test below. */
  @FusilladeServers(postgres = true)
  @EnabledIfSystemProperty(named = SELF_TEST, matches = "true")
  static class AsksForKafkaItDidNotDeclare {
    @Test
    void cannotHaveIt(io.fusillade.local.KafkaServer kafka) {
      seen.add("ran");
    }
  }

  @Test
  @Tag("slow")
  void startsTheDeclaredServerHandsItOverAndStopsItAfterTheClass() {
    // a value set before the class is replaced while it runs and put back after it
    System.setProperty("sql.url", "jdbc:postgresql://before/kept");
    TestExecutionSummary summary = run(DeclaresPostgres.class, new ArrayList<>());

    assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(1);
    String url = seen.get(0);
    assertThat(url).startsWith("jdbc:postgresql://");
    // the URL as a parameter, as fusillade.postgres.url and as the simulations' own sql.url/user
    assertThat(seen).containsExactly(url, url, url, "postgres", "42");
    // after the class: the properties are as before and nothing listens where the server was
    assertThat(System.getProperty(FusilladeServers.POSTGRES_URL)).isNull();
    assertThat(System.getProperty("sql.url")).isEqualTo("jdbc:postgresql://before/kept");
    assertThat(System.getProperty("sql.user")).isNull();
    URI address = URI.create(url.substring("jdbc:".length()));
    assertThatThrownBy(
            () -> {
              try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(address.getHost(), address.getPort()), 2_000);
              }
            })
        .as("the server at %s was stopped", url)
        .isInstanceOf(java.io.IOException.class);
  }

  @Test
  @Tag("slow")
  void aNestedClassSharesTheServerOfItsEnclosingClass() {
    TestExecutionSummary summary = run(HasANestedClass.class, new ArrayList<>());

    assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(3);
    assertThat(seen).hasSize(3);
    String url = seen.get(0).substring("outer ".length());
    assertThat(seen)
        .as("one server for the class and its nested class")
        .containsExactlyInAnyOrder("outer " + url, "outer " + url, "inner " + url);
    assertThat(System.getProperty(FusilladeServers.POSTGRES_URL)).isNull();
  }

  @Test
  @Tag("slow")
  void aServerTheClassDidNotDeclareIsAClearFailure() {
    TestExecutionSummary summary = run(AsksForKafkaItDidNotDeclare.class, new ArrayList<>());

    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(seen).isEmpty();
    assertThat(summary.getFailures().get(0).getException())
        .hasMessageContaining("no KafkaServer was started: declare it in @FusilladeServers on ")
        .hasMessageContaining("AsksForKafkaItDidNotDeclare");
  }

  /**
   * With -Dfusillade.servers=containers, the class gets a PostgreSQL in a container, and a failing
   * test leaves no container and no network behind: the extension removes them after the class,
   * whatever its tests did (there is no Ryuk to do it where no registry answers).
   */
  @Test
  @Tag("slow")
  void inContainersAFailingClassLeavesNoContainerAndNoNetwork() {
    Docker.assumeAvailable();
    System.setProperty(Servers.PROPERTY, "containers");

    TestExecutionSummary summary = run(OneOfItsTestsFails.class, new ArrayList<>());

    assertThat(summary.getTestsSucceededCount()).as(failures(summary)).isEqualTo(1);
    assertThat(summary.getTestsFailedCount()).isEqualTo(1);
    assertThat(seen).containsExactly("ContainerPostgres", seen.get(1), "42");
    assertThat(Leftovers.ofThisSession()).as("after the class").isEmpty();
    assertThat(System.getProperty(FusilladeServers.POSTGRES_URL)).isNull();
  }

  @Test
  void containersWithoutDockerSkipTheClassWithTheReason() {
    assumeFalse(Docker.available(), "a Docker engine answers here");
    System.setProperty(Servers.PROPERTY, "containers");
    List<String> skipped = new ArrayList<>();

    TestExecutionSummary summary = run(DeclaresPostgres.class, skipped);

    assertThat(summary.getTestsSucceededCount() + summary.getTestsFailedCount()).isZero();
    assertThat(summary.getContainersAbortedCount()).isEqualTo(1);
    assertThat(seen).isEmpty();
    assertThat(skipped)
        .singleElement()
        .asString()
        .contains("-Dfusillade.servers=containers needs a Docker engine");
  }

  private static TestExecutionSummary run(Class<?> testClass, List<String> abortReasons) {
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build();
    SummaryGeneratingListener summary = new SummaryGeneratingListener();
    TestExecutionListener aborts =
        new TestExecutionListener() {
          @Override
          public void executionFinished(TestIdentifier id, TestExecutionResult result) {
            if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
              abortReasons.add(result.getThrowable().map(Throwable::getMessage).orElse(""));
            }
          }
        };
    LauncherFactory.create().execute(request, summary, aborts);
    return summary.getSummary();
  }

  private static String failures(TestExecutionSummary summary) {
    StringBuilder text = new StringBuilder();
    summary.getFailures().forEach(f -> text.append(f.getException()).append('\n'));
    return text.toString();
  }
}
