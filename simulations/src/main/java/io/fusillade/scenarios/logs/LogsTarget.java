package io.fusillade.scenarios.logs;

import io.fusillade.fault.Fault;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalOpenSearch;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.plan.PlanProperties;
import io.fusillade.plan.RunPlan;
import io.fusillade.scenarios.LocalFaults;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Where a log simulation sends its load: the nodes of a system property (comma-separated base
 * URLs), else the nodes a workload names, else an embedded OpenSearch started for the run and
 * stopped with it (one node, or as many as {@value #NODES_PROPERTY} says). Records {@code target}
 * in {@code run.json}: the masked URLs, or {@code embedded}.
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
    List<String> nodes = urls.isEmpty() ? fallback : urls;
    if (!nodes.isEmpty()) {
      FusilladeRun.parameters(
          Map.of("target", nodes.stream().map(LogsClientOptions::mask).toList()));
      return new LogsTarget(nodes, false);
    }
    int count = RunPlan.current().logs().nodes();
    // A node that a fault freezes runs in a JVM of its own (SIGSTOP would stop the injector too);
    // otherwise the nodes share the injector's: on two cores, three cold node JVMs compiling the
    // same code take the first seconds of the run from the load.
    boolean separate =
        Boolean.parseBoolean(
            SimulationProperties.string(
                SEPARATE_PROCESS_PROPERTY,
                Boolean.toString(
                    !FusilladeRun.faultedNodes(LocalFaults.OPENSEARCH, Fault.Action.PAUSE)
                        .isEmpty())));
    LocalOpenSearch.Builder builder =
        LocalOpenSearch.builder().nodes(count).separateProcess(separate);
    // A node whose answers a fault delays is reached through a proxy, from the start.
    FusilladeRun.faultedNodes(LocalFaults.OPENSEARCH, Fault.Action.DELAY)
        .forEach(n -> builder.delayable(n - 1));
    LocalOpenSearch cluster = builder.start();
    FusilladeRun.closeAtEnd(cluster);
    FusilladeRun.faultTarget(LocalFaults.OPENSEARCH, LocalFaults.openSearch(cluster));
    FusilladeRun.parameters(Map.of("target", "embedded"));
    return new LogsTarget(cluster.baseUrls(), true);
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

  /**
   * @return the URLs as an array, for {@code logs.urls(...)}
   */
  public String[] urlArray() {
    return urls.toArray(String[]::new);
  }
}
