package io.fusillade.scenarios.sql;

import io.fusillade.FusilladeException;
import io.fusillade.fault.Fault;
import io.fusillade.gatling.ClockOffset;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.sql.SqlBalance;
import io.fusillade.gatling.sql.SqlDsl;
import io.fusillade.gatling.sql.SqlNodeBuilder;
import io.fusillade.gatling.sql.SqlProtocolBuilder;
import io.fusillade.local.DelayProxy;
import io.fusillade.local.LocalPostgres;
import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.sql.JdbcUrls;
import io.fusillade.sql.SqlClientOptions;
import io.fusillade.sql.SqlEngine;
import io.fusillade.workload.Workload;
import io.fusillade.workload.schema.Dialect;
import io.fusillade.workload.schema.SchemaTool;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where a workload-driven SQL simulation sends its load, from its {@link RunSettings} (the system
 * properties below) and, for the last two, system properties of their own:
 *
 * <ul>
 *   <li>{@code fusillade.urls} — comma-separated JDBC URLs of the nodes; else the workload's {@code
 *       connection} section; else an embedded PostgreSQL is started;
 *   <li>{@code fusillade.user} and the password in the environment variable {@code
 *       FUSILLADE_SQL_PASSWORD} (or the workload's {@code ${env:...}});
 *   <li>{@code fusillade.setup} — {@code auto} (the default: create and fill the tables on an
 *       embedded server only, as {@code fusillade schema up} and {@code fill} would), {@code true}
 *       or {@code false}; {@code fusillade.teardown} — drop the tables at the end;
 *   <li>{@code fusillade.engine} — {@code jdbc} (the default) or {@code native} (see {@link
 *       SqlEngine});
 *   <li>{@code fusillade.postgres.settings} — the embedded server's {@code postgresql.conf}
 *       settings, one {@code name=value} a line; {@code fusillade.postgres.replicas} — its
 *       streaming replicas (a count), which take reads;
 *   <li>{@code fusillade.replicaUrls} — comma-separated JDBC URLs of the replicas of the nodes of
 *       {@code fusillade.urls}; else the workload's {@code connection.replicas};
 *   <li>{@code fusillade.pool}, {@code fusillade.balance} ({@code round-robin}, {@code random},
 *       {@code weighted:2,1,1}, {@code consistent-hash}, {@code zone}), {@code fusillade.failover}
 *       (the longest wait between two probes of a down node, such as {@code 5s}; 2 s by default);
 *   <li>{@code fusillade.requestTimeout}, {@code fusillade.maxTries}, {@code
 *       fusillade.latencyLimit}, {@code fusillade.zone} and {@code fusillade.nodeZones}: the run
 *       plan's {@link RunPlan.Requests}.
 * </ul>
 */
public final class SqlTarget {
  private SqlTarget() {}

  /**
   * A {@code name=value} server setting as its name and value.
   *
   * @throws IllegalArgumentException when it is not of that form
   */
  public static String[] serverSetting(String text) {
    int equals = text.indexOf('=');
    String name = equals < 0 ? "" : text.substring(0, equals).strip();
    if (!name.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
      throw new IllegalArgumentException(
          "\"" + text + "\" is not NAME=VALUE (example: max_parallel_workers_per_gather=0)");
    }
    return new String[] {name, text.substring(equals + 1).strip()};
  }

  /** Whether the run's settings and workload name no database: it then starts its own. */
  static boolean embedded(RunSettings settings, Workload workload) {
    return External.of(settings, workload).isEmpty();
  }

  /** Starts the embedded PostgreSQL (and its replicas) that the system properties describe. */
  static LocalPostgresCluster startEmbedded() {
    LocalPostgres.Builder builder = LocalPostgres.builder();
    RunPlan.Sql sql = RunPlan.current().sql();
    for (String line : sql.serverSettings()) {
      String[] setting = serverSetting(line);
      builder = builder.serverConfig(setting[0], setting[1]);
    }
    return LocalPostgresCluster.start(builder, sql.replicas());
  }

  /** Starts what is needed and returns the protocol; resources close with the run. */
  static SqlProtocolBuilder prepare(RunSettings settings, Workload workload, long seed) {
    return prepare(settings, workload, seed, SqlClientOptions.DEFAULT_REQUEST_TIMEOUT);
  }

  /**
   * Starts what is needed and returns the protocol, whose request timeout is {@code defaultTimeout}
   * unless the plan's {@link RunPlan.Requests#timeout} says; resources close with the run.
   */
  static SqlProtocolBuilder prepare(
      RunSettings settings, Workload workload, long seed, Duration defaultTimeout) {
    List<String> nodes;
    List<String> replicas = List.of();
    String user;
    String password;
    boolean embedded = false;
    LocalPostgresCluster cluster = null;
    Optional<External> external = External.of(settings, workload);
    if (external.isPresent()) {
      nodes = external.get().nodes();
      replicas = external.get().replicas();
      user = external.get().user();
      password = external.get().password();
      // begun early only when the same settings said embedded: never, but never left running
      EarlyPostgres.take().ifPresent(LocalPostgresCluster::close);
    } else {
      password = System.getenv("FUSILLADE_SQL_PASSWORD"); // as before: the embedded one trusts
      // started while Gatling loaded, when the forked JVM's main could
      cluster = EarlyPostgres.take().orElseGet(SqlTarget::startEmbedded);
      FusilladeRun.closeAtEnd(cluster);
      // A node whose answers a fault delays is reached through a proxy, from the start.
      java.util.Map<Integer, DelayProxy> proxies = new java.util.HashMap<>();
      for (int node : FusilladeRun.faultedNodes(LocalFaults.POSTGRES, Fault.Action.DELAY)) {
        if (node <= cluster.nodes().size()) {
          DelayProxy proxy = DelayProxy.start("localhost", cluster.nodes().get(node - 1).port());
          FusilladeRun.closeAtEnd(proxy);
          proxies.put(node, proxy);
        }
      }
      FusilladeRun.faultTarget(LocalFaults.POSTGRES, LocalFaults.postgres(cluster, proxies));
      FusilladeRun.embeddedLog(cluster.nodes().get(0).logFile());
      FusilladeRun.parameters(java.util.Map.of("target", "embedded"));
      List<String> urls = new java.util.ArrayList<>();
      for (int i = 0; i < cluster.nodes().size(); i++) {
        LocalPostgres node = cluster.nodes().get(i);
        DelayProxy proxy = proxies.get(i + 1);
        urls.add(
            proxy == null
                ? node.jdbcUrl()
                : node.jdbcUrl()
                    .replace(
                        "//localhost:" + node.port() + "/", "//127.0.0.1:" + proxy.port() + "/"));
      }
      nodes = List.of(urls.get(0));
      replicas = urls.subList(1, urls.size());
      user = cluster.user();
      embedded = true;
    }
    if (!embedded) {
      FusilladeRun.parameters(
          java.util.Map.of("target", nodes.stream().map(JdbcUrls::mask).toList()));
    }
    String setup = (settings.setup() != null ? settings.setup() : "auto").toLowerCase(Locale.ROOT);
    if (setup.equals("true") || (setup.equals("auto") && embedded)) {
      setUp(nodes.get(0), user, password, workload, seed);
    }
    List<String> injectedSetUp = InjectedSql.setUp(workload.injected());
    if (!injectedSetUp.isEmpty()) {
      execute(nodes.get(0), user, password, injectedSetUp);
    }
    if (cluster != null && !replicas.isEmpty()) {
      // The first reads on a replica must find the rows the set-up just wrote.
      cluster.awaitReplicated(Duration.ofSeconds(60));
    }
    if (settings.teardown()) {
      String url = nodes.get(0);
      String u = user;
      String p = password;
      FusilladeRun.closeAtEnd(() -> schema(url, u, p, tool -> tool.down(workload)));
    }
    return requests(
        SqlDsl.sql
            .nodes(zoned(nodes, 0, nodeZones(settings, workload, nodes.size() + replicas.size())))
            .replicaNodes(
                zoned(
                    replicas,
                    nodes.size(),
                    nodeZones(settings, workload, nodes.size() + replicas.size())))
            .user(user)
            .password(password)
            .poolSize(
                settings.pool() != null ? settings.pool() : SqlProtocolBuilder.DEFAULT_POOL_SIZE)
            .engine(SqlEngine.of(settings.engine() != null ? settings.engine() : "jdbc"))
            .balance(
                balanceProperty(settings.balance() != null ? settings.balance() : "round-robin"))
            .connectionTimeout(RunPlan.current().sql().connectionTimeout())
            .failover(RunPlan.current().sql().failover()),
        RunPlan.current().sql().requests(),
        defaultTimeout);
  }

  // ------------------------------------------------ timeouts, tries, zones (SqlRequestOptions)

  /**
   * The plan's request timeout (else {@code timeout}), tries and latency limit on {@code protocol};
   * a query's own {@code timeout:} and {@code max_tries:} win ({@link #call}).
   */
  private static SqlProtocolBuilder requests(
      SqlProtocolBuilder protocol, RunPlan.Requests requests, Duration timeout) {
    SqlProtocolBuilder with =
        protocol
            .requestTimeout(requests.timeout() != null ? requests.timeout() : timeout)
            .maxTries(requests.maxTries());
    return requests.latencyLimit() == null ? with : with.latencyLimit(requests.latencyLimit());
  }

  /**
   * The zone of each of the run's {@code count} nodes: the plan's ({@code --node-zones}), else the
   * workload's own connection's (not for nodes {@code --url} names), else none ("" each).
   *
   * @throws FusilladeException when their number is not the nodes'
   */
  static List<String> nodeZones(RunSettings settings, Workload workload, int count) {
    List<String> zones = RunPlan.current().sql().requests().nodeZones();
    if (!zones.isEmpty()) {
      if (zones.size() != count) {
        throw new FusilladeException(
            "--node-zones gives "
                + zones.size()
                + " zones for "
                + count
                + " nodes (the --url nodes, or the embedded primary, then the replicas)");
      }
      return zones;
    }
    List<String> own =
        settings.urls().isEmpty()
            ? workload.connection().map(c -> c.zones()).orElse(List.of())
            : List.of();
    return own.size() == count ? own : java.util.Collections.nCopies(count, "");
  }

  /** The nodes {@code urls}, the first being node {@code from} of {@code zones}. */
  private static SqlNodeBuilder[] zoned(List<String> urls, int from, List<String> zones) {
    SqlNodeBuilder[] nodes = new SqlNodeBuilder[urls.size()];
    for (int i = 0; i < nodes.length; i++) {
      String zone = zones.get(from + i);
      nodes[i] = zone.isEmpty() ? SqlDsl.node(urls.get(i)) : SqlDsl.node(urls.get(i)).zone(zone);
    }
    return nodes;
  }

  /**
   * This injector's clock offset to the database's ({@link ClockOffset}), when it is one of several
   * or waits for a common start: the database is the clock they all share. Nothing for an embedded
   * database, which only a lone injector starts.
   *
   * @param settings the run's settings
   * @param workload the workload
   * @param share this injector's share of the test
   * @return the offset to the first node, or empty
   */
  static Optional<ClockOffset> clockOffset(
      RunSettings settings, Workload workload, InjectorShare share) {
    Optional<External> external = External.of(settings, workload);
    if ((share.alone() && share.startAt() == null) || external.isEmpty()) {
      return Optional.empty();
    }
    String url = external.get().nodes().get(0);
    try (Connection connection =
            DriverManager.getConnection(url, external.get().user(), external.get().password());
        java.sql.PreparedStatement now = connection.prepareStatement(CLOCK_QUERY)) {
      return Optional.of(
          ClockOffset.measure(
              () -> {
                try (java.sql.ResultSet r = now.executeQuery()) {
                  r.next();
                  return r.getLong(1);
                }
              },
              JdbcUrls.mask(url)));
    } catch (Exception e) {
      // a database without PostgreSQL's clock_timestamp(): the run goes on, on this clock
      System.out.println(
          "Fusillade: cannot read the clock of "
              + JdbcUrls.mask(url)
              + " ("
              + JdbcUrls.mask(String.valueOf(e.getMessage()))
              + "): this injector's clock offset is not measured; --start-at is read on its"
              + " own clock");
      return Optional.empty();
    }
  }

  /**
   * The database the workload's URLs or {@code --url} name, with its user and password; empty when
   * the run starts an embedded one. {@code fusillade run} passes the workload's URLs on too: its
   * user and password still apply, as they did for the check before the fork (DatabaseOptions).
   */
  private record External(List<String> nodes, List<String> replicas, String user, String password) {
    static Optional<External> of(RunSettings settings, Workload workload) {
      if (settings.urls().isEmpty() && workload.connection().isEmpty()) {
        return Optional.empty();
      }
      String password = System.getenv("FUSILLADE_SQL_PASSWORD");
      if (password == null) {
        password = workload.connection().map(c -> c.password()).orElse(null);
      }
      List<String> replicaUrls = RunPlan.current().sql().replicaUrls();
      return Optional.of(
          new External(
              !settings.urls().isEmpty() ? settings.urls() : workload.connection().get().urls(),
              // the workload's replicas are its own nodes': not those of the nodes --url names
              !replicaUrls.isEmpty()
                  ? replicaUrls
                  : settings.urls().isEmpty()
                      ? workload.connection().map(c -> c.replicas()).orElse(List.of())
                      : List.of(),
              settings.user() != null
                  ? settings.user()
                  : workload.connection().map(c -> c.user()).orElse(null),
              password));
    }
  }

  /** The database's time, microseconds since the epoch (PostgreSQL and its kin). */
  static final String CLOCK_QUERY =
      "select (extract(epoch from clock_timestamp()) * 1000000)::bigint";

  private static void setUp(
      String url, String user, String password, Workload workload, long seed) {
    schema(
        url,
        user,
        password,
        tool -> tool.load(workload, seed)); // tables, rows, then indexes: the fastest order
  }

  /** Runs statements on one node, before the load (the injected requests' table). */
  private static void execute(String url, String user, String password, List<String> statements) {
    try (Connection connection = DriverManager.getConnection(url, user, password);
        java.sql.Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException e) {
      throw new FusilladeException(
          "cannot prepare the injected requests on "
              + JdbcUrls.mask(url)
              + ": "
              + JdbcUrls.mask(String.valueOf(e.getMessage())),
          e);
    }
  }

  interface SchemaWork {
    void run(SchemaTool tool);
  }

  static void schema(String url, String user, String password, SchemaWork work) {
    try (Connection connection = DriverManager.getConnection(url, user, password)) {
      work.run(
          new SchemaTool(
              connection, Dialect.detect(connection, url), new PrintWriter(System.out, true)));
    } catch (SQLException e) {
      throw new FusilladeException(
          "cannot connect to "
              + JdbcUrls.mask(url)
              + ": "
              + JdbcUrls.mask(String.valueOf(e.getMessage())),
          e);
    }
  }

  private static SqlBalance balanceProperty(String spec) {
    try {
      SqlBalance balance = balance(spec);
      String zone = RunPlan.current().sql().requests().zone();
      // --zone: the injector's zone the plan carries, not a property of this JVM
      return zone != null && spec.strip().equalsIgnoreCase("zone")
          ? SqlBalance.zone(zone)
          : balance;
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("system property fusillade.balance: " + e.getMessage());
    }
  }

  /** The balancing strategies {@link #balance} reads, for messages and help. */
  public static final String BALANCES =
      "round-robin, random, weighted:2,1,1, consistent-hash or zone";

  /**
   * Reads a balancing strategy as {@code fusillade run --balance} spells it: {@code round-robin},
   * {@code random}, {@code weighted:2,1,1} (one weight per URL), {@code consistent-hash} (each
   * query's first parameter is its key: the same key always goes to the same node).
   *
   * @throws IllegalArgumentException naming the text and the choices
   */
  public static SqlBalance balance(String spec) {
    String value = spec.strip().toLowerCase(Locale.ROOT);
    if (value.equals("consistent-hash")) {
      return SqlBalance.consistentHashOnFirstValue();
    }
    if (value.equals("round-robin") || value.equals("roundrobin")) {
      return SqlBalance.roundRobin();
    }
    if (value.equals("random")) {
      return SqlBalance.random();
    }
    if (value.equals("zone")) {
      return SqlBalance.zone(); // the injector's zone: FUSILLADE_ZONE (--zone: the plan's)
    }
    if (value.startsWith("weighted:")) {
      try {
        return SqlBalance.weighted(
            Arrays.stream(value.substring("weighted:".length()).split(","))
                .map(String::strip)
                .mapToInt(Integer::parseInt)
                .toArray());
      } catch (NumberFormatException e) {
        // fall through to the error
      }
    }
    throw new IllegalArgumentException("'" + spec + "' is not one of " + BALANCES);
  }
}
