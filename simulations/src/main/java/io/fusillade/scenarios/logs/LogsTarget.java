package io.fusillade.scenarios.logs;

import io.fusillade.FusilladeException;
import io.fusillade.fault.Fault;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalOpenSearch;
import io.fusillade.local.LocalSeqDb;
import io.fusillade.local.SeqDbBinary;
import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogStore;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SeqDbMappings;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.scenarios.LocalFaults;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Where a log simulation sends its load: the nodes of a system property (comma-separated base
 * URLs), else the nodes a workload names, else an embedded OpenSearch (or seq-db, for a workload
 * whose target it is) started for the run and stopped with it (one node, or as many as {@value
 * #NODES_PROPERTY} says). Records {@code target} in {@code run.json}: the masked URLs, or {@code
 * embedded}.
 *
 * @param urls the nodes' base URLs
 * @param embedded whether they are an embedded node of this run
 */
public record LogsTarget(List<String> urls, boolean embedded) {

  /** Copies the list. */
  public LogsTarget {
    urls = List.copyOf(urls);
  }

  /**
   * Resolves the target; starts the embedded node (closed at the end of the run) when neither the
   * property nor the fallback names one.
   *
   * @param property the system property with comma-separated base URLs ({@code logs.url}, {@code
   *     fusillade.urls})
   * @param fallback the nodes to use when the property is not set (a workload's), possibly empty
   * @return where the load goes
   */
  public static LogsTarget resolve(String property, List<String> fallback) {
    String urls = SimulationProperties.string(property, "");
    return resolve(
        Arrays.stream(urls.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList(),
        fallback);
  }

  /**
   * Resolves the target; starts the embedded node (closed at the end of the run) when neither
   * {@code urls} nor the fallback names one.
   *
   * @param urls the nodes' base URLs given for the run ({@link
   *     io.fusillade.record.RunSettings#urls()}), possibly empty
   * @param fallback the nodes to use when {@code urls} is empty (a workload's), possibly empty
   * @return where the load goes
   */
  public static LogsTarget resolve(List<String> urls, List<String> fallback) {
    return resolve(urls, fallback, LogStore.OPENSEARCH, null);
  }

  /**
   * Resolves the target; starts the embedded store of {@code store}'s kind (closed at the end of
   * the run) when neither {@code urls} nor the fallback names one: OpenSearch, or seq-db with the
   * mapping file {@code index} makes ({@link SeqDbMappings}), from the binary {@link SeqDbBinary}
   * finds (the plan's: {@code fusillade run --seqdb-binary}).
   *
   * @param urls the nodes' base URLs given for the run, possibly empty
   * @param fallback the nodes to use when {@code urls} is empty (a workload's), possibly empty
   * @param store the kind of store
   * @param index the index the run creates (its mapping is seq-db's file), or null for none
   * @return where the load goes
   */
  public static LogsTarget resolve(
      List<String> urls, List<String> fallback, LogStore store, IndexSpec index) {
    List<String> nodes = urls.isEmpty() ? fallback : urls;
    if (!nodes.isEmpty()) {
      FusilladeRun.parameters(
          Map.of("target", nodes.stream().map(LogsClientOptions::mask).toList()));
      return new LogsTarget(nodes, false);
    }
    if (store == LogStore.SEQ_DB) {
      return embeddedSeqDb(index);
    }
    int count = RunPlan.current().logs().nodes();
    // A node that a fault freezes runs in a JVM of its own (SIGSTOP would stop the injector too);
    // otherwise the nodes share the injector's: on two cores, three cold node JVMs compiling the
    // same code take the first seconds of the run from the load.
    boolean separate =
        Boolean.parseBoolean(
            SimulationProperties.string(
                SEPARATE_PROCESS_PROPERTY,
                RunPlan.current().logs().serversApart()
                    ? "true"
                    : Boolean.toString(
                        !FusilladeRun.faultedNodes(LocalFaults.OPENSEARCH, Fault.Action.PAUSE)
                            .isEmpty())));
    LocalOpenSearch.Builder builder =
        LocalOpenSearch.builder().nodes(count).separateProcess(separate);
    if (RunPlan.current().logs().serversApart()) {
      // A study's store is measured, not squeezed: at the default 512 MiB the parent circuit
      // breaker answered 429 to 6 of the seed's 20 looping paging users on 1,000,000 documents.
      builder.heap(STUDY_HEAP);
    }
    // A node whose answers a fault delays is reached through a proxy, from the start.
    FusilladeRun.faultedNodes(LocalFaults.OPENSEARCH, Fault.Action.DELAY)
        .forEach(n -> builder.delayable(n - 1));
    LocalOpenSearch cluster = builder.start();
    FusilladeRun.closeAtEnd(cluster);
    FusilladeRun.faultTarget(LocalFaults.OPENSEARCH, LocalFaults.openSearch(cluster));
    watch(LocalFaults.OPENSEARCH, cluster.pids());
    FusilladeRun.parameters(Map.of("target", "embedded"));
    return new LogsTarget(cluster.baseUrls(), true);
  }

  /**
   * An embedded seq-db: one node, or with the plan's nodes N above 1 an ingestor in front of N
   * stores. Faults name its processes {@code seq-db 1} (the node, or the ingestor) to {@code seq-db
   * N+1}; each is in a process of its own, so any can be paused.
   */
  private static LogsTarget embeddedSeqDb(IndexSpec index) {
    int count = RunPlan.current().logs().nodes();
    LocalSeqDb.Builder builder =
        LocalSeqDb.builder()
            .binary(RunPlan.current().logs().seqdbBinary())
            .stores(count > 1 ? count : 0)
            .mapping(index == null ? null : SeqDbMappings.yaml(index));
    FusilladeRun.faultedNodes(LocalFaults.SEQ_DB, Fault.Action.DELAY)
        .forEach(n -> builder.delayable(n - 1));
    LocalSeqDb seqDb;
    try {
      seqDb = builder.start();
    } catch (IllegalStateException e) {
      // no binary, or one that does not start: the user's to fix, in one line
      throw new FusilladeException(e.getMessage());
    }
    FusilladeRun.closeAtEnd(seqDb);
    FusilladeRun.faultTarget(LocalFaults.SEQ_DB, LocalFaults.seqDb(seqDb));
    watch(LocalFaults.SEQ_DB, seqDb.pids());
    FusilladeRun.parameters(Map.of("target", "embedded seq-db"));
    return new LogsTarget(List.of(seqDb.baseUrl()), true);
  }

  /**
   * Records the CPU and memory of the server's processes beside the injector's: {@code
   * process.<kind>-<n>.cpu} and {@code .rss}, node {@code n} from 1 (a node in the injector's JVM
   * has none of its own).
   */
  private static void watch(String kind, List<Long> pids) {
    for (int i = 0; i < pids.size(); i++) {
      FusilladeRun.watchProcess(pids.get(i), processLabel(kind, i + 1));
    }
  }

  /** The label of node {@code n}'s process gauges: {@code seq-db-1}. */
  public static String processLabel(String kind, int node) {
    return kind + "-" + node;
  }

  /**
   * The system property of the embedded OpenSearch's node count ({@code fusillade run --nodes}): 1
   * by default.
   */
  public static final String NODES_PROPERTY = PlanProperties.OPENSEARCH_NODES;

  /**
   * The system property that runs the embedded OpenSearch's nodes in JVMs of their own ({@code
   * true}) or in the injector's ({@code false}): by default in the injector's, unless a fault
   * pauses one.
   */
  public static final String SEPARATE_PROCESS_PROPERTY = "opensearch.embedded.separateProcess";

  /** The heap of each embedded OpenSearch node of a study ({@code fusillade study}). */
  static final String STUDY_HEAP = "1g";

  /**
   * @return the URLs as an array, for {@code logs.urls(...)}
   */
  public String[] urlArray() {
    return urls.toArray(String[]::new);
  }
}
