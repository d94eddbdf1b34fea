package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A fresh server starts from a copy of one {@code initdb} output, kept in the temporary directory;
 * a template the binaries cannot start is dropped and made again, and the server starts anyway.
 */
@Tag("slow") // starts servers
class InitdbTemplateTest {
  private static final Path TEMPLATE =
      Path.of(System.getProperty("java.io.tmpdir"), "fusillade-pginit-template", "data");

  @Test
  void aServerStartsFromTheTemplateAndABadTemplateIsMadeAgain() throws Exception {
    try (LocalPostgres first = LocalPostgres.start()) {
      assertThat(TEMPLATE.resolve("postgresql.conf")).as("the template, made").isRegularFile();
      assertThat(answer(first)).isEqualTo(1);
    }
    String version = Files.readString(TEMPLATE.resolve("PG_VERSION")).strip();

    // the template of other binaries: this server's refuse its files
    Files.writeString(TEMPLATE.resolve("PG_VERSION"), "9\n");
    try (LocalPostgres second = LocalPostgres.start()) {
      assertThat(answer(second)).isEqualTo(1);
      assertThat(text(second, "show server_version_num"))
          .as("initdb's own directory, not the bad copy")
          .startsWith(version);
    }
    assertThat(TEMPLATE).as("the bad template, dropped").doesNotExist();

    try (LocalPostgres third = LocalPostgres.start()) {
      assertThat(answer(third)).isEqualTo(1);
    }
    assertThat(Files.readString(TEMPLATE.resolve("PG_VERSION")).strip())
        .as("made again")
        .isEqualTo(version);
  }

  private static String text(LocalPostgres server, String sql) throws Exception {
    try (Connection c = server.connect();
        ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  private static int answer(LocalPostgres server) throws Exception {
    try (Connection c = server.connect();
        ResultSet r = c.createStatement().executeQuery("select 1")) {
      r.next();
      return r.getInt(1);
    }
  }
}
