package io.fusillade.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * Runs one node of an embedded OpenSearch in this JVM: the child process of a {@link
 * LocalOpenSearch} started with {@link LocalOpenSearch.Builder#separateProcess(boolean)}, so that a
 * fault can freeze the node (SIGSTOP) without freezing the injector.
 *
 * <p>{@code OpenSearchMain <index> <http ports> <transport ports> <cluster name> <directory>}, the
 * ports comma-separated, one per node of the cluster. It writes {@value #READY_FILE} in its
 * directory once the node serves HTTP, and ends the moment its owner JVM does (even after a {@code
 * kill -9}), from its first instant ({@link ChildJvm#exitWhenParentEnds()}). It ignores SIGINT, as
 * a broker of {@link KafkaMain} does: its owner stops it with SIGTERM once the run that uses it has
 * stopped.
 */
public final class OpenSearchMain {
  static final String READY_FILE = "ready";

  private OpenSearchMain() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println(
          "usage: OpenSearchMain <index> <http ports> <transport ports> <cluster name>"
              + " <directory>");
      System.exit(2);
    }
    ChildJvm.exitWhenParentEnds(); // before anything else: a node starts for seconds
    int index = Integer.parseInt(args[0]);
    int[] http = Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray();
    int[] transport = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
    Path directory = Path.of(args[4]);
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("INT"), sun.misc.SignalHandler.SIG_IGN);
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // the JVM keeps SIGINT: Ctrl-C stops the node at once
    }
    OpenSearchRunner runner = LocalOpenSearch.quietRunner();
    // The runner counts the nodes of this JVM (one) from 1: this node is the cluster's index.
    runner.onBuild(
        (number, settings) -> LocalOpenSearch.nodeSettings(settings, index, http, transport));
    try {
      runner.build(
          OpenSearchRunner.newConfigs()
              .clusterName(args[3])
              .numOfNode(1)
              .basePath(directory.resolve("data").toString())
              .disableESLogger());
    } catch (RuntimeException e) {
      // the owner shows the end of this JVM's output; OpenSearch's threads would keep it alive
      e.printStackTrace();
      System.exit(1);
    }
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    runner.close();
                  } catch (Exception e) {
                    // the JVM ends anyway
                  }
                },
                "opensearch-node-shutdown"));
    Files.writeString(directory.resolve(READY_FILE), "ready");
    // Until a signal (the owner's SIGTERM) or the owner's end (exitWhenParentEnds) ends the JVM.
    Thread.currentThread().join();
  }
}
