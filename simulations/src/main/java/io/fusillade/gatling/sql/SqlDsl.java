package io.fusillade.gatling.sql;

import io.fusillade.gatling.FusilladeRun;
import java.time.Duration;

/**
 * The entry point of Fusillade's SQL protocol for Gatling simulations, in the style of Gatling's
 * {@code HttpDsl}: {@code sql} configures the protocol, {@code sql("name")} starts a request.
 *
 * <pre>{@code
 * import static io.fusillade.gatling.sql.SqlDsl.*;
 *
 * SqlProtocolBuilder db = sql.url(url).poolSize(8);
 * ScenarioBuilder lookups = scenario("lookups")
 *     .feed(ids)
 *     .exec(sql("account by id").query("select * from accounts where id = ?").params("#{id}"));
 * setUp(lookups.injectOpen(constantUsersPerSec(200).during(30))).protocols(db);
 * }</pre>
 */
public final class SqlDsl {
  /** The SQL protocol with its defaults: a pool of 8 connections, 30 s connection timeout. */
  public static final SqlProtocolBuilder sql =
      new SqlProtocolBuilder(null, null, null, 8, null, Duration.ofSeconds(30));

  private SqlDsl() {}

  /**
   * Starts a SQL request. {@code name} is the request's name in reports: keep it to a few distinct
   * values (one per kind of statement, not one per id).
   */
  public static SqlRequest sql(String name) {
    FusilladeRun.noteSimulation();
    return new SqlRequest(name);
  }
}
