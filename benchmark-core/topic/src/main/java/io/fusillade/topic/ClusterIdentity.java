package io.fusillade.topic;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * What Kafka cluster a run wrote to, for {@code run.json}'s {@code topic.server} parameter (and so
 * for {@code compare}, which names what differs between baseline and candidate): the number of
 * brokers, the cluster's {@code metadata.version} feature level (the broker release it runs at),
 * the client library's version, the broker settings set away from their defaults (not the sensitive
 * ones, nor those that differ on every start: listeners, ports, directories, ids), and each topic's
 * partitions, replication and topic settings set away from the defaults.
 */
public final class ClusterIdentity {
  private static final List<String> PER_START =
      List.of("listener", "port", "log.dir", "node.id", "broker.id", "quorum", "advertised", "dir");

  private ClusterIdentity() {}

  /**
   * The identity, as plain maps and values.
   *
   * @throws Exception when the cluster does not answer in {@code timeout}
   */
  public static Map<String, Object> of(Admin admin, Collection<String> topics, Duration timeout)
      throws Exception {
    long ms = timeout.toMillis();
    Map<String, Object> out = new TreeMap<>();
    Collection<Node> nodes = admin.describeCluster().nodes().get(ms, TimeUnit.MILLISECONDS);
    out.put("brokers", nodes.size());
    out.put("client", AppInfoParser.getVersion());
    FinalizedVersionRange metadata =
        admin
            .describeFeatures()
            .featureMetadata()
            .get(ms, TimeUnit.MILLISECONDS)
            .finalizedFeatures()
            .get("metadata.version");
    if (metadata != null) {
      out.put("metadataVersion", metadata.maxVersionLevel());
    }
    if (!nodes.isEmpty()) {
      ConfigResource broker =
          new ConfigResource(
              ConfigResource.Type.BROKER, Integer.toString(nodes.iterator().next().id()));
      Config config =
          admin.describeConfigs(List.of(broker)).all().get(ms, TimeUnit.MILLISECONDS).get(broker);
      out.put("settings", changed(config, false));
    }
    Map<String, Object> described = new TreeMap<>();
    Map<String, TopicDescription> descriptions =
        admin.describeTopics(topics).allTopicNames().get(ms, TimeUnit.MILLISECONDS);
    List<ConfigResource> resources =
        topics.stream().map(t -> new ConfigResource(ConfigResource.Type.TOPIC, t)).toList();
    Map<ConfigResource, Config> configs =
        admin.describeConfigs(resources).all().get(ms, TimeUnit.MILLISECONDS);
    for (String topic : topics) {
      TopicDescription d = descriptions.get(topic);
      if (d == null) {
        continue;
      }
      Map<String, Object> t = new TreeMap<>();
      t.put("partitions", d.partitions().size());
      t.put(
          "replication",
          d.partitions().stream().mapToInt(p -> p.replicas().size()).max().orElse(0));
      Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, topic));
      if (config != null) {
        t.put("settings", changed(config, true));
      }
      described.put(topic, t);
    }
    out.put("topics", described);
    return out;
  }

  /** The entries set away from their defaults, sensitive and per-start ones left out. */
  private static Map<String, String> changed(Config config, boolean topic) {
    Map<String, String> out = new TreeMap<>();
    for (ConfigEntry e : config.entries()) {
      if (e.isSensitive() || e.value() == null || e.source() == null) {
        continue;
      }
      boolean set =
          topic
              ? e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG
              : e.source() == ConfigEntry.ConfigSource.STATIC_BROKER_CONFIG
                  || e.source() == ConfigEntry.ConfigSource.DYNAMIC_BROKER_CONFIG
                  || e.source() == ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG;
      String name = e.name().toLowerCase(Locale.ROOT);
      if (set && PER_START.stream().noneMatch(name::contains)) {
        out.put(e.name(), e.value());
      }
    }
    return out;
  }
}
