package io.fusillade.scenarios.topic;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.local.LocalPostgres;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.workload.Workload;

/**
 * The PostgreSQL of a topic workload's sinks ({@code sink: {table: ...}}): the workload's {@code
 * connection} (its first URL), else one embedded server for the run, started with the first sink
 * and a target of faults ({@code pause postgres for 5s}).
 */
final class SinkDatabase {
  private static LocalPostgres embedded; // one per run: closed at its end

  private SinkDatabase() {}

  /** The sink of {@code table}, its tables created. */
  static synchronized PostgresTopicSink sink(Workload workload, String table) {
    if (workload.connection().isPresent()) {
      var c = workload.connection().get();
      return new PostgresTopicSink(c.urls().get(0), c.user(), c.password(), table);
    }
    if (embedded == null) {
      LocalPostgres postgres = LocalPostgres.start();
      FusilladeRun.closeAtEnd(
          () -> {
            synchronized (SinkDatabase.class) {
              embedded = null;
            }
            postgres.close();
          });
      FusilladeRun.faultTarget(LocalFaults.POSTGRES, LocalFaults.postgres(postgres));
      embedded = postgres;
    }
    return new PostgresTopicSink(embedded.jdbcUrl(), embedded.user(), embedded.password(), table);
  }
}
