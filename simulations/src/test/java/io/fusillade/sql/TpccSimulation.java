package io.fusillade.sql;

import static io.fusillade.gatling.sql.SqlDsl.sql;
import static io.fusillade.gatling.sql.SqlDsl.sqlCall;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.sql.SqlCall;
import io.fusillade.gen.AliasTable;
import io.fusillade.gen.Rng;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.Seeds;
import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunSettings;
import io.fusillade.record.SettingValues;
import io.fusillade.workload.Query;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadData;
import io.fusillade.workload.WorkloadLoader;
import io.fusillade.workload.schema.Dialect;
import io.fusillade.workload.schema.SchemaTool;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.Simulation;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reference simulation of the OLTP workload derived from TPC-C ({@code workloads/tpcc.yml}; not an
 * official TPC-C implementation, its results are not TPC-C results), as TPC-C models its users:
 * terminals, each a virtual user that chooses a transaction by the standard mix (45% New-Order, 43%
 * Payment, 4% each Order-Status, Delivery and Stock-Level), keys it in, runs it (each transaction
 * one request of several statements, committed together), and thinks before the next. The
 * transactions, their statements and their NURand parameters are the workload file's: the same
 * workload runs from YAML ({@code fusillade run workloads/tpcc.yml}, an open arrival rate) and from
 * Java (this closed model).
 *
 * <pre>
 * mvn -pl simulations gatling:test -Dgatling.simulationClass=io.fusillade.sql.TpccSimulation \
 *     -Dtpcc.terminals=10 -Dtpcc.duration=60s -Dtpcc.think=1
 * </pre>
 *
 * <ul>
 *   <li>{@code tpcc.terminals}: terminals per warehouse (default 10, TPC-C's);
 *   <li>{@code tpcc.duration}: how long the terminals run (default 60s);
 *   <li>{@code tpcc.think}: the share of TPC-C's keying and think times (clause 5.2.5: keying 18 s
 *       for a New-Order, 3 s for a Payment, 2 s for the others; think times exponential, of means
 *       12, 12, 10, 5 and 5 s, cut at ten times the mean), default 0: none, each terminal sends its
 *       next transaction as soon as the last one ends (the most load a few terminals give);
 *   <li>{@code fusillade.scale}: warehouses (default the file's, 1); {@code fusillade.workload}
 *       another file ({@code ../workloads/tpcc.yml} by default, from the simulations module);
 *   <li>{@code fusillade.urls}, {@code fusillade.user} and {@code FUSILLADE_SQL_PASSWORD}: your
 *       database, loaded first only with {@code -Dfusillade.setup=true}; without a URL an embedded
 *       PostgreSQL is started and loaded.
 * </ul>
 *
 * <p>At the end it prints New-Order per minute, "tpmC-like": the New-Orders completed OK over the
 * run, per minute (derived from TPC-C's tpmC, not one), and records it in {@code run.json} as
 * {@code tpcc.newOrdersPerMinute}; each transaction's latency is its own line of the report.
 */
public class TpccSimulation extends Simulation {
  /** Terminals per warehouse. */
  public static final String TERMINALS = "tpcc.terminals";

  /** How long the terminals run. */
  public static final String DURATION = "tpcc.duration";

  /** The share of TPC-C's keying and think times, 0 for none. */
  public static final String THINK = "tpcc.think";

  /** The transaction whose completions per minute are the tpmC-like figure. */
  public static final String NEW_ORDER = "New-Order";

  /** The run.json parameter of New-Order per minute. */
  public static final String NEW_ORDERS_PER_MINUTE = "tpcc.newOrdersPerMinute";

  /** TPC-C's keying times (clause 5.2.5.7) and mean think times (5.2.5.4), in seconds. */
  private static final Map<String, double[]> KEYING_AND_THINK =
      Map.of(
          "New-Order", new double[] {18, 12},
          "Payment", new double[] {3, 12},
          "Order-Status", new double[] {2, 10},
          "Delivery", new double[] {2, 5},
          "Stock-Level", new double[] {2, 5});

  private static final String TERMINAL = "tpcc.terminal";

  private final AtomicLong newOrders = new AtomicLong();
  private final Duration duration;

  {
    RunSettings settings = RunSettings.fromSystemProperties();
    Path file =
        settings.workload() != null ? settings.workload() : Path.of("..", "workloads", "tpcc.yml");
    Workload workload = WorkloadLoader.load(file).orThrow();
    long seed = settings.seed() != null ? settings.seed() : workload.seed().orElse(1);
    int warehouses = (int) workload.table("warehouse").orElseThrow().rowCount();
    int terminals = Integer.getInteger(TERMINALS, 10) * warehouses;
    duration = SettingValues.parseDuration(System.getProperty(DURATION, "60s"));
    double think = Double.parseDouble(System.getProperty(THINK, "0"));
    if (terminals < 1 || !(think >= 0) || duration.isZero() || duration.isNegative()) {
      throw new FusilladeException(
          TERMINALS + ", " + DURATION + " and " + THINK + " must be > 0, > 0 and >= 0");
    }

    String url;
    String user;
    String password = System.getenv("FUSILLADE_SQL_PASSWORD");
    boolean load;
    if (settings.urls().isEmpty()) {
      LocalPostgres postgres = FusilladeRun.closeAtEnd(LocalPostgres.start());
      url = postgres.jdbcUrl();
      user = postgres.user();
      load = true;
    } else {
      url = settings.urls().get(0);
      user = settings.user();
      load = "true".equals(settings.setup());
    }
    if (load) {
      load(workload, seed, url, user, password);
    }
    Map<String, Object> parameters = new LinkedHashMap<>();
    parameters.put("workload", file.toString());
    parameters.put("seed", seed);
    parameters.put("tpcc.warehouses", warehouses);
    parameters.put("tpcc.terminals", terminals);
    parameters.put(THINK, think);
    FusilladeRun.parameters(parameters);

    WorkloadData data = new WorkloadData(workload, seed);
    AtomicInteger started = new AtomicInteger();
    ScenarioBuilder terminal =
        scenario("terminals")
            .exec(
                session ->
                    session.set(
                        TERMINAL,
                        new Terminal(data, started.getAndIncrement(), terminals, think, seed)))
            .during(duration, false)
            .on(
                exec(session -> session.set(TERMINAL, terminal(session).choose()))
                    .pause(session -> terminal(session).keying())
                    .exec(sqlCall(session -> terminal(session).call()))
                    .exec(
                        session -> {
                          if (!session.isFailed() && terminal(session).isNewOrder()) {
                            newOrders.incrementAndGet();
                          }
                          return session.markAsSucceeded();
                        })
                    .pause(session -> terminal(session).think()));
    setUp(terminal.injectOpen(atOnceUsers(terminals)))
        .protocols(
            sql.url(url)
                .user(user)
                .password(password)
                .poolSize(terminals)
                .engine(SqlEngine.of(settings.engine() != null ? settings.engine() : "jdbc")));
  }

  @Override
  public void after() {
    double perMinute = newOrders.get() / (duration.toMillis() / 60_000.0);
    System.out.printf(
        "TpccSimulation: New-Order per minute (tpmC-like, derived from TPC-C; not a TPC-C"
            + " result): %.1f (%d New-Orders in %s)%n",
        perMinute, newOrders.get(), SettingValues.formatDuration(duration));
    FusilladeRun.parameters(Map.of(NEW_ORDERS_PER_MINUTE, Math.round(perMinute * 10) / 10.0));
  }

  private static Terminal terminal(Session session) {
    return session.get(TERMINAL);
  }

  /** Creates the tables, fills them, and creates the indexes (the schema tool's order). */
  private static void load(Workload workload, long seed, String url, String user, String password) {
    try (Connection connection = DriverManager.getConnection(url, user, password)) {
      SchemaTool tool =
          new SchemaTool(
              connection, Dialect.detect(connection, url), new PrintWriter(System.out, true));
      tool.up(workload);
      tool.fill(workload, seed);
    } catch (SQLException e) {
      throw new FusilladeException("cannot load the TPC-C tables: " + e.getMessage(), e);
    }
  }

  /**
   * One terminal: its seeded choice of transactions and pauses, and its own stream of each
   * transaction's parameters (user {@code index} of {@code count}, as the YAML runners split them).
   * Used by its virtual user's thread only.
   */
  static final class Terminal {
    private final List<Query> transactions;
    private final AliasTable mix;
    private final RowGenerator[] params;
    private final Rng rng;
    private final double think;
    private int chosen;

    Terminal(WorkloadData data, int index, int count, double think, long seed) {
      this.transactions = data.workload().queries();
      this.mix = new AliasTable(transactions.stream().map(q -> (double) q.count()).toList());
      this.params = new RowGenerator[transactions.size()];
      for (int q = 0; q < params.length; q++) {
        params[q] = data.params(q, index % count, count);
      }
      this.rng = new Rng(Seeds.derive(Seeds.stream(seed, "tpcc", "terminal"), index));
      this.think = think;
    }

    /** Chooses the next transaction by the mix. */
    Terminal choose() {
      chosen = mix.sample(rng);
      return this;
    }

    Duration keying() {
      return seconds(think * times()[0]);
    }

    /** Negative exponential of the transaction's mean, cut at ten times the mean (5.2.5.4). */
    Duration think() {
      double mean = think * times()[1];
      if (mean == 0) {
        return Duration.ZERO;
      }
      return seconds(Math.min(-Math.log(1 - rng.nextDouble()) * mean, 10 * mean));
    }

    SqlCall call() {
      Query query = transactions.get(chosen);
      List<Object> values = Arrays.asList(params[chosen].next());
      return query.isTransaction()
          ? SqlCall.transaction(query.name(), query.statements(), values)
          : new SqlCall(query.name(), query.sql(), values);
    }

    boolean isNewOrder() {
      return NEW_ORDER.equals(transactions.get(chosen).name());
    }

    private double[] times() {
      return KEYING_AND_THINK.getOrDefault(transactions.get(chosen).name(), new double[] {0, 0});
    }

    private static Duration seconds(double s) {
      return Duration.ofNanos((long) (s * 1e9));
    }
  }
}
