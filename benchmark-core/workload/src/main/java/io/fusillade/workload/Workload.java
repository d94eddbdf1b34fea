package io.fusillade.workload;

import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.limit.AdaptiveSettings;
import io.fusillade.limit.LimitSettings;
import io.fusillade.system.ServerTarget;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A validated workload: tables to create and fill, indexes, the queries to send, and a log
 * workload. Load it with {@link WorkloadLoader}; generate its data with {@link WorkloadData}.
 *
 * @param file the file it was read from, for messages
 * @param name the {@code config_name}
 * @param seed the {@code seed} given in the file, if any
 * @param connection the {@code connection} section, if any
 * @param tables the tables
 * @param indexes the indexes
 * @param queries the queries
 * @param logs the {@code logs} section, if any
 * @param kafka the {@code kafka} section, if any
 * @param topics the {@code topics} section (see {@link TopicWorkload})
 * @param load the {@code load} section: how {@code fusillade run} sends the queries ({@link
 *     Load#NONE} when the file does not say)
 * @param checks the {@code checks} list, as written
 * @param checksDeclared whether the file has a {@code checks} key at all: {@code checks: []} (or an
 *     empty {@code checks:}) declares that the run has no checks, which {@code fusillade run} tells
 *     apart from a file that says nothing (that one gets default checks)
 * @param abort the {@code abort} list: rules that stop the run while it is under way ({@code errors
 *     > 5% over 10s}), read and checked
 * @param limit the {@code limit} section: how {@code fusillade limit} searches for the maximum
 *     sustainable rate, if the file says
 * @param adaptive the {@code adaptive} section: how {@code fusillade run --mode adaptive} steers
 *     the rate, if the file says
 * @param monitor the {@code monitor} list: servers whose metrics the run records
 * @param injected the {@code injected} list: requests mixed in to fail on purpose
 * @param faults the {@code faults} list: faults scheduled during the run ({@code at 30s kill broker
 *     1}), read and checked
 * @param monitorLogs the {@code monitor} entries with {@code logs:}: server log files whose lines
 *     are counted per pattern
 */
public record Workload(
    String file,
    String name,
    OptionalLong seed,
    Optional<Connection> connection,
    List<Table> tables,
    List<Index> indexes,
    List<Query> queries,
    Optional<LogsSection> logs,
    Optional<KafkaConnection> kafka,
    List<TopicWorkload> topics,
    Load load,
    List<CheckText> checks,
    boolean checksDeclared,
    List<AbortRule> abort,
    Optional<LimitSettings> limit,
    Optional<AdaptiveSettings> adaptive,
    List<ServerTarget> monitor,
    List<InjectedFault> injected,
    List<Fault> faults,
    List<LogMonitor> monitorLogs) {

  /** The seed used when neither the file nor the command line gives one. */
  public static final long DEFAULT_SEED = 1;

  /** Copies the lists. */
  public Workload {
    tables = List.copyOf(tables);
    indexes = List.copyOf(indexes);
    queries = List.copyOf(queries);
    logs = logs == null ? Optional.empty() : logs;
    kafka = kafka == null ? Optional.empty() : kafka;
    topics = topics == null ? List.of() : List.copyOf(topics);
    load = load == null ? Load.NONE : load;
    checks = checks == null ? List.of() : List.copyOf(checks);
    checksDeclared = checksDeclared || !checks.isEmpty();
    abort = abort == null ? List.of() : List.copyOf(abort);
    limit = limit == null ? Optional.empty() : limit;
    adaptive = adaptive == null ? Optional.empty() : adaptive;
    monitor = monitor == null ? List.of() : List.copyOf(monitor);
    injected = injected == null ? List.of() : List.copyOf(injected);
    faults = faults == null ? List.of() : List.copyOf(faults);
    monitorLogs = monitorLogs == null ? List.of() : List.copyOf(monitorLogs);
  }

  /**
   * The same workload with other queries: the same ones as a server must be sent them ({@link
   * CastReview#adapt}), or a set chosen by tag or name ({@link QuerySelection}).
   *
   * @param replaced the queries
   * @return a copy
   */
  public Workload withQueries(List<Query> replaced) {
    return new Workload(
        file,
        name,
        seed,
        connection,
        tables,
        indexes,
        replaced,
        logs,
        kafka,
        topics,
        load,
        checks,
        checksDeclared,
        abort,
        limit,
        adaptive,
        monitor,
        injected,
        faults,
        monitorLogs);
  }

  /**
   * @param tableName a table name
   * @return the table of that name
   */
  public Optional<Table> table(String tableName) {
    return tables.stream().filter(t -> t.name().equals(tableName)).findFirst();
  }
}
