package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fresh server starts from a copy of one {@code initdb} output; a template the binaries cannot
 * start is dropped and made again, one that others may write is left alone, and the server starts
 * anyway. The template is kept in this test's own directory, not the machine's.
 */
@Tag("slow") // starts servers
class InitdbTemplateTest {
  @TempDir Path base;
  private Path template;

  @BeforeEach
  void ownTemplate() {
    template = base.resolve("template");
    InitdbTemplate.locationForTests(template);
  }

  @AfterEach
  void machineTemplate() {
    InitdbTemplate.locationForTests(null);
  }

  @Test
  void aServerStartsFromTheTemplateAndABadTemplateIsMadeAgain() throws Exception {
    Path data = template.resolve("data");
    try (LocalPostgres first = LocalPostgres.start()) {
      assertThat(data.resolve("postgresql.conf")).as("the template, made").isRegularFile();
      assertThat(text(first, "select 1")).isEqualTo("1");
    }
    String version = Files.readString(data.resolve("PG_VERSION")).strip();

    // the template of other binaries: this server's refuse its files
    Files.writeString(data.resolve("PG_VERSION"), "9\n");
    try (LocalPostgres second = LocalPostgres.start()) {
      assertThat(text(second, "show server_version_num"))
          .as("initdb's own directory, not the bad copy")
          .startsWith(version);
    }
    assertThat(template).as("the bad template, dropped").doesNotExist();

    try (LocalPostgres third = LocalPostgres.start()) {
      assertThat(text(third, "select 1")).isEqualTo("1");
    }
    assertThat(Files.readString(data.resolve("PG_VERSION")).strip())
        .as("made again")
        .isEqualTo(version);
  }

  @Test
  void aTemplateOthersCouldWriteIsNotUsed() throws Exception {
    try (LocalPostgres first = LocalPostgres.start()) {
      assertThat(text(first, "select 1")).isEqualTo("1");
    }
    Files.setPosixFilePermissions(template, PosixFilePermissions.fromString("rwxrwxrwx"));
    // a setting planted in it would be the next server's
    Files.writeString(
        template.resolve("data").resolve("postgresql.auto.conf"), "work_mem = '7777kB'\n");
    try (LocalPostgres second = LocalPostgres.start()) {
      assertThat(text(second, "show work_mem")).as("initdb's own setting").isEqualTo("4MB");
    }
    assertThat(template).as("someone else's to drop").isDirectory();
  }

  private static String text(LocalPostgres server, String sql) throws Exception {
    try (Connection c = server.connect();
        ResultSet r = c.createStatement().executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }
}
