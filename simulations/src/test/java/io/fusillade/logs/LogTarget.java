package io.fusillade.logs;

import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.local.LocalOpenSearch;
import java.util.Arrays;
import java.util.List;

/**
 * Where the reference log simulations send their load: the nodes of {@code -Dlogs.url} (comma
 * separated), or an embedded OpenSearch started for the run and stopped with it.
 */
final class LogTarget {
  private LogTarget() {}

  /** Whether the simulation runs against its own embedded node. */
  static boolean embedded() {
    return SimulationProperties.string("logs.url", "").isEmpty();
  }

  /** The base URLs; starts an embedded node (closed at the end of the run) when none are given. */
  static List<String> urls() {
    String urls = SimulationProperties.string("logs.url", "");
    if (!urls.isEmpty()) {
      return Arrays.stream(urls.split(",")).map(String::strip).toList();
    }
    LocalOpenSearch node = LocalOpenSearch.start();
    FusilladeRun.closeAtEnd(node);
    return List.of(node.baseUrl());
  }
}
