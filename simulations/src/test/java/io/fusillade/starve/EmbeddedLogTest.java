package io.fusillade.starve;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.system.LogCounter;
import io.fusillade.system.LogWatch;
import java.sql.Connection;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The embedded PostgreSQL's log file, counted by a {@code logs: embedded} source. */
class EmbeddedLogTest {

  @Test
  void warningsTheServerLogsAreCounted() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      assertThat(postgres.logFile()).exists();
      Map<String, String> patterns = new LinkedHashMap<>();
      patterns.put("warning", "WARNING|could not send");
      patterns.put("error", "ERROR");
      try (LogCounter counter =
              LogCounter.start(List.of(LogWatch.of("postgres", postgres.logFile(), patterns)));
          Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        for (int i = 0; i < 3; i++) {
          s.execute(
              "DO $$ BEGIN RAISE WARNING 'could not send data to client (test %)', 1; END $$");
        }
        try {
          s.execute("select 1 / 0");
        } catch (java.sql.SQLException expected) {
          // division by zero: an ERROR in the server's log
        }
        Map<String, Object> lines = Map.of();
        for (int i = 0; i < 50; i++) {
          @SuppressWarnings("unchecked")
          Map<String, Object> pg = (Map<String, Object>) counter.totals().get("postgres");
          @SuppressWarnings("unchecked")
          Map<String, Object> now = (Map<String, Object>) pg.get("lines");
          lines = now;
          if (lines.get("warning").equals(3L) && lines.get("error").equals(1L)) {
            break;
          }
          Thread.sleep(100);
        }
        assertThat(lines).isEqualTo(Map.of("warning", 3L, "error", 1L));
      }
    }
  }
}
