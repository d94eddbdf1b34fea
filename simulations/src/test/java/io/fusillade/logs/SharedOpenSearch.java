package io.fusillade.logs;

import io.fusillade.local.LocalOpenSearch;

/**
 * One OpenSearch node for every test class of this JVM that only writes and reads it: started by
 * the first that asks, stopped when the JVM ends (its watchdog would stop it even if the JVM were
 * killed). A node takes 10 to 15 s to start on the 2-core machine, a run that starts one embedded
 * as long again: the classes that share this one save that much each.
 *
 * <p>What may share it: a test whose runs recreate their index (every {@code LogsRun} does) or use
 * an index no other test uses, and that neither stops, pauses nor kills the node (a node "down"
 * behind a forwarder that the test stops, as in {@code LogsNodeOutageTest}, may share it). A test
 * of the embedded node that a run starts itself, or of the node itself going down, starts its own.
 * Test classes run one at a time in a JVM (the surefire configuration), so two never write to the
 * node at once. Its heap is its own, 1 GiB: a node in the test's heap rejects bulks at a million
 * documents.
 */
public final class SharedOpenSearch {
  private static LocalOpenSearch node;

  private SharedOpenSearch() {}

  /** The node's base URL, {@code http://127.0.0.1:PORT}; the first call starts it. */
  public static synchronized String url() {
    if (node == null) {
      LocalOpenSearch started = LocalOpenSearch.builder().separateProcess(true).heap("1g").start();
      Runtime.getRuntime().addShutdownHook(new Thread(started::close, "shared-opensearch-stop"));
      node = started;
    }
    return node.baseUrl();
  }
}
