package io.fusillade.scenarios;

import io.fusillade.fault.FaultTarget;
import io.fusillade.local.DelayProxy;
import io.fusillade.local.LocalKafka;
import io.fusillade.local.LocalOpenSearch;
import io.fusillade.local.LocalPostgres;
import io.fusillade.local.LocalPostgresCluster;
import io.fusillade.local.LocalSeqDb;
import io.fusillade.topic.TopicSink;
import java.util.List;

/**
 * The embedded servers as targets of scheduled faults ({@code at 30s pause broker 2 for 10s}):
 * register them with {@code FusilladeRun.faultTarget("broker", LocalFaults.kafka(kafka))}. The
 * workload runners do so for the servers they start.
 */
public final class LocalFaults {
  private LocalFaults() {}

  /** The name faults give the embedded Kafka's brokers: {@code kill broker 1}. */
  public static final String BROKER = "broker";

  /**
   * The name faults give the consumers of a topic that writes into a table ({@code kill consumer 1
   * for 5s}: stopped, and started again).
   */
  public static final String CONSUMER = "consumer";

  /** The name faults give the embedded PostgreSQL: {@code pause postgres for 5s}. */
  public static final String POSTGRES = "postgres";

  /** The name faults give the embedded OpenSearch's nodes: {@code kill opensearch 2 for 10s}. */
  public static final String OPENSEARCH = "opensearch";

  /**
   * The name faults give the embedded seq-db's processes: {@code pause seq-db for 2s} (the node),
   * {@code kill seq-db 3 for 5s} (with an ingestor and stores: the second store).
   */
  public static final String SEQ_DB = "seq-db";

  /**
   * The processes of an embedded seq-db, node {@code n} being index {@code n - 1}: node 1 is the
   * single node, or the ingestor in front of the stores (nodes 2 to N+1). A kill is SIGKILL (its
   * ports refuse connections), a restart starts it again on its ports with its data, a pause
   * freezes it (SIGSTOP), a delay holds its answers (a node started {@link
   * LocalSeqDb.Builder#delayable delayable}).
   */
  public static FaultTarget seqDb(LocalSeqDb seqDb) {
    return new FaultTarget() {
      @Override
      public int nodes() {
        return seqDb.nodes();
      }

      @Override
      public void delay(int node, java.time.Duration delay) {
        seqDb.delayNode(node - 1, delay);
      }

      @Override
      public void pause(int node) {
        seqDb.pauseNode(node - 1);
      }

      @Override
      public void resume(int node) {
        seqDb.resumeNode(node - 1);
      }

      @Override
      public void kill(int node) {
        seqDb.stopNode(node - 1);
      }

      @Override
      public void restart(int node) {
        seqDb.startNode(node - 1);
      }
    };
  }

  /**
   * The nodes of an embedded OpenSearch, node {@code n} being index {@code n - 1}: a kill stops the
   * node (its port refuses connections, the others take its shards over), a restart starts it again
   * with its data, a delay holds its answers (a node started {@link
   * LocalOpenSearch.Builder#delayable delayable}), a pause freezes a node that runs in a JVM of its
   * own ({@link LocalOpenSearch.Builder#separateProcess}).
   */
  public static FaultTarget openSearch(LocalOpenSearch cluster) {
    return new FaultTarget() {
      @Override
      public int nodes() {
        return cluster.nodes();
      }

      @Override
      public void delay(int node, java.time.Duration delay) {
        cluster.delayNode(node - 1, delay);
      }

      @Override
      public void pause(int node) {
        cluster.pauseNode(node - 1);
      }

      @Override
      public void resume(int node) {
        cluster.resumeNode(node - 1);
      }

      @Override
      public void kill(int node) {
        cluster.stopNode(node - 1);
      }

      @Override
      public void restart(int node) {
        cluster.startNode(node - 1);
      }
    };
  }

  /**
   * The brokers of an embedded Kafka, node {@code n} being broker index {@code n - 1}. Pausing
   * needs the brokers in processes of their own ({@link LocalKafka.Builder#separateProcess}), a
   * delay a broker started {@link LocalKafka.Builder#delayable delayable}.
   */
  public static FaultTarget kafka(LocalKafka kafka) {
    return new FaultTarget() {
      @Override
      public int nodes() {
        return kafka.brokers();
      }

      @Override
      public void delay(int node, java.time.Duration delay) {
        kafka.delayBroker(node - 1, delay);
      }

      @Override
      public void pause(int node) {
        kafka.pauseBroker(node - 1);
      }

      @Override
      public void resume(int node) {
        kafka.resumeBroker(node - 1);
      }

      @Override
      public void kill(int node) {
        kafka.killBroker(node - 1);
      }

      @Override
      public void restart(int node) {
        kafka.restartBroker(node - 1);
      }
    };
  }

  /**
   * The consumers of a topic with a sink ({@code kill consumer 1 for 5s}): a kill stops one after
   * its current write (it leaves the group, whose other consumers take its partitions from the
   * sink's offsets), a restart starts it again; a pause is a stop until resumed.
   *
   * @param count the consumers of the topic
   */
  public static FaultTarget consumers(TopicSink sink, int count) {
    return new FaultTarget() {
      @Override
      public int nodes() {
        return count;
      }

      @Override
      public void pause(int node) {
        group().stop(node - 1);
      }

      @Override
      public void resume(int node) {
        group().start(node - 1);
      }

      @Override
      public void kill(int node) {
        group().stop(node - 1);
      }

      @Override
      public void restart(int node) {
        group().start(node - 1);
      }

      private TopicSink.Consumers group() {
        TopicSink.Consumers group = sink.consumers();
        if (group == null) {
          throw new IllegalStateException("the topic's consumers have not started");
        }
        return group;
      }
    };
  }

  /**
   * An embedded PostgreSQL: one node. A kill is an immediate stop, a restart its crash recovery.
   */
  public static FaultTarget postgres(LocalPostgres postgres) {
    return postgres(List.of(postgres), java.util.Map.of());
  }

  /**
   * An embedded PostgreSQL primary and its streaming replicas: node 1 is the primary, node 2 the
   * first replica ({@code pause postgres 2 for 5s}). A kill is an immediate stop, a restart its
   * crash recovery (a replica then streams what it missed).
   */
  public static FaultTarget postgres(LocalPostgresCluster cluster) {
    return postgres(cluster.nodes(), java.util.Map.of());
  }

  /**
   * The same, with the proxies through which the run reaches the nodes that faults delay ({@code
   * delay postgres 2 by 50ms for 10s}), by node.
   */
  public static FaultTarget postgres(
      LocalPostgresCluster cluster, java.util.Map<Integer, DelayProxy> proxies) {
    return postgres(cluster.nodes(), proxies);
  }

  private static FaultTarget postgres(
      List<LocalPostgres> servers, java.util.Map<Integer, DelayProxy> proxies) {
    return new FaultTarget() {
      @Override
      public void delay(int node, java.time.Duration delay) {
        DelayProxy proxy = proxies.get(node);
        if (proxy == null) {
          throw new IllegalStateException("postgres " + node + " is reached without a delay proxy");
        }
        proxy.delay(delay);
      }

      @Override
      public AutoCloseable starve(int node, io.fusillade.starve.CpuStarve starve) {
        LocalPostgres server = servers.get(node - 1);
        return io.fusillade.starve.CpuStarvation.start(
            starve, io.fusillade.starve.CpuStarvation.detect(starve.mechanism()), server::pids);
      }

      @Override
      public int nodes() {
        return servers.size();
      }

      @Override
      public void pause(int node) {
        servers.get(node - 1).pause();
      }

      @Override
      public void resume(int node) {
        servers.get(node - 1).resume();
      }

      @Override
      public void kill(int node) {
        DelayProxy proxy = proxies.get(node);
        if (proxy != null) {
          proxy.refuse(); // its port refuses connections, as the server's own would
        }
        servers.get(node - 1).stopImmediately();
      }

      @Override
      public void restart(int node) {
        servers.get(node - 1).restart();
        DelayProxy proxy = proxies.get(node);
        if (proxy != null) {
          proxy.listenAgain();
        }
      }
    };
  }
}
