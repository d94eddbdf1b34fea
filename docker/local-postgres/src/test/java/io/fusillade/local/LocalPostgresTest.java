package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("slow")
class LocalPostgresTest {

  /** A JVM that starts a server, says where it is, and waits to be killed. */
  public static void main(String[] args) throws Exception {
    LocalPostgres postgres = LocalPostgres.start();
    System.out.println(
        "PID " + postgres.pid().orElseThrow() + " " + postgres.dataDirectoryForTests());
    System.out.flush();
    Thread.sleep(TimeUnit.MINUTES.toMillis(5));
  }

  @Test
  void startsARealServerThatAnswersQueriesAndRemovesItsDataOnClose() throws Exception {
    Path data;
    try (LocalPostgres postgres = LocalPostgres.start()) {
      data = postgres.dataDirectoryForTests();
      try (Connection c = postgres.connect();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select current_setting('fsync'), version()")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).isEqualTo("off");
        assertThat(r.getString(2)).startsWith("PostgreSQL 18");
      }
      assertThat(postgres.jdbcUrl())
          .startsWith("jdbc:postgresql://localhost:" + postgres.port() + "/");
      assertThat(postgres.pid()).isPresent();
      assertThat(Files.isDirectory(data)).isTrue();
    }
    assertThat(Files.exists(data.getParent())).isFalse();
  }

  @Test
  void aPasswordUserMustAuthenticateWithScram() throws Exception {
    String secret = "s3cr'et-Pw";
    try (LocalPostgres postgres = LocalPostgres.builder().passwordUser("app", secret).start()) {
      String url = postgres.jdbcUrl("app");
      assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url).close())
          .hasMessageContaining("password");
      assertThatThrownBy(() -> java.sql.DriverManager.getConnection(url, "app", "wrong").close())
          .hasMessageContaining("password authentication failed");
      try (Connection c = java.sql.DriverManager.getConnection(url, "app", secret);
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("select rolpassword from pg_authid where rolname = 'app'")) {
        assertThat(r.next()).isTrue();
        assertThat(r.getString(1)).startsWith("SCRAM-SHA-256$");
      }
      // The superuser is still trusted.
      try (Connection c = postgres.connect()) {
        assertThat(c.isValid(1)).isTrue();
      }
    }
  }

  @Test
  void aServerOrphanedByAKilledJvmIsStoppedByTheNextStart() throws Exception {
    Orphan orphan = orphan();
    try (LocalPostgres next = LocalPostgres.start()) {
      assertThat(next.pid()).isPresent();
    }
    assertThat(running(orphan.pid())).isFalse();
    assertThat(Files.exists(orphan.data())).isFalse();
  }

  @Test
  void stopOrphansStopsAServerWhoseJvmWasKilled() throws Exception {
    Orphan orphan = orphan();
    // What fusillade run does when its Gatling JVM is gone.
    assertThat(LocalServers.stopOrphans(Duration.ofSeconds(5))).contains(orphan.data().getParent());
    assertThat(running(orphan.pid())).isFalse();
    assertThat(Files.exists(orphan.data())).isFalse();
  }

  /**
   * Whether the process runs: not gone, and not a zombie (a dead orphan that the machine's init, a
   * container's or a VM's agent, may never reap; {@link ProcessHandle#isAlive} counts it alive).
   */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
    } catch (java.io.IOException gone) {
      return false;
    }
  }

  /** A server whose JVM was killed: its postmaster and its data directory. */
  private record Orphan(long pid, Path data) {}

  private static Orphan orphan() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(
                java.toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LocalPostgresTest.class.getName())
            .redirectErrorStream(true)
            .start();
    long orphan;
    Path orphanData;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("PID ")) {
        // skip the child's logging
      }
      assertThat(line).as("the child started its server").isNotNull();
      String[] fields = line.split(" ", 3);
      orphan = Long.parseLong(fields[1]);
      orphanData = Path.of(fields[2]);
    } finally {
      // Its watchdog first (OwnerWatch, a shell): what is tested here is the reaper of what no
      // watchdog stopped (a watchdog killed with its JVM's process group, a machine without sh).
      child
          .descendants()
          .filter(p -> p.info().command().map(c -> c.endsWith("sh")).orElse(false))
          .forEach(ProcessHandle::destroyForcibly);
      child.destroyForcibly(); // SIGKILL: the child's server is orphaned
      child.waitFor(10, TimeUnit.SECONDS);
    }
    assertThat(ProcessHandle.of(orphan).map(ProcessHandle::isAlive)).contains(true);
    return new Orphan(orphan, orphanData);
  }
}
