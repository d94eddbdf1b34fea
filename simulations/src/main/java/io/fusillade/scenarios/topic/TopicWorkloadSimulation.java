package io.fusillade.scenarios.topic;

import static io.fusillade.gatling.kafka.KafkaDsl.kafka;
import static io.gatling.javaapi.core.CoreDsl.exec;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.ArrivalSchedule.Segment;
import io.fusillade.gatling.ClockOffset;
import io.fusillade.gatling.FusilladeArrivals;
import io.fusillade.gatling.FusilladeLimit;
import io.fusillade.gatling.FusilladeRun;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.gatling.SimulationProperties;
import io.fusillade.gatling.kafka.KafkaComponents;
import io.fusillade.gatling.kafka.KafkaDsl;
import io.fusillade.gatling.kafka.KafkaProtocolBuilder;
import io.fusillade.gatling.kafka.TopicSendBuilder;
import io.fusillade.gatling.kafka.TopicSteps;
import io.fusillade.gen.Seeds;
import io.fusillade.limit.LimitSettings;
import io.fusillade.local.BrokerDisk;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.scenarios.InjectedChains;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.StageInjection;
import io.fusillade.scenarios.WorkloadProperties;
import io.fusillade.topic.KafkaTopicSink;
import io.fusillade.topic.TopicSink;
import io.fusillade.topic.TopicSpec;
import io.fusillade.workload.KafkaConnection;
import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the {@code topics:} section of a workload file without code: {@code
 * -Dfusillade.workload=path/to/file.yml} ({@link RunSettings}). Each topic gets its writers (a
 * constant {@code rate}, {@code steps} judged like {@code TopicThroughputSimulation}, or {@code
 * stages} as {@code load.stages} are for queries: {@link StageInjection}), sent by the lanes of
 * {@link FusilladeArrivals} (each write's latency from its due time), and its consumer group; the
 * cluster is {@code -Dfusillade.urls} (bootstrap servers), else the file's {@code
 * kafka.bootstrap_servers}, else an embedded Kafka (three brokers if a topic's replication is above
 * 1). {@code -Dfusillade.seed} overrides the file's seed. The run records the mode {@code topics},
 * the workload file, the seed, the target ({@code embedded} or {@code external}) and the topics'
 * stages when they all run the same ones; the rates come from the injection profile (see {@link
 * io.fusillade.gatling.FusilladeRun}). Under {@code fusillade limit} ({@link
 * WorkloadProperties#searching()}) the one topic's writes search their maximum sustainable rate
 * instead.
 */
public class TopicWorkloadSimulation extends Simulation {
  /**
   * The topic config a topic created with replication 3 or more gets unless the workload sets it:
   * 2, so that with the producers' {@code acks=all} every acknowledged write is on two brokers.
   */
  static final String MIN_INSYNC = "min.insync.replicas";

  /**
   * The system property of how long the consumers may read after the load before the delivery is
   * judged ({@code 30s}); 10 s by default, {@link #FAULTS_DRAIN} for a workload with faults.
   */
  public static final String DRAIN_PROPERTY = "fusillade.topic.drainTimeout";

  /** The drain of a workload with faults: a group catching up after a broker's restart. */
  static final Duration FAULTS_DRAIN = Duration.ofSeconds(30);

  /** The request name of a topic's writes: {@code write <topic>}. */
  public static String requestName(String topic) {
    return "write " + topic;
  }

  {
    RunSettings given = RunPlan.current().settings();
    Path file = given.workload();
    if (file == null) {
      throw new FusilladeException(
          "TopicWorkloadSimulation needs -D" + RunSettings.WORKLOAD + "=path/to/file.yml");
    }
    Workload workload = WorkloadLoader.load(file).orThrow();
    WorkloadProperties.scheduleFaults(workload);
    if (workload.topics().isEmpty()) {
      throw new FusilladeException(file + ": the workload has no topics section");
    }
    long seed = given.seed() != null ? given.seed() : workload.seed().orElse(Workload.DEFAULT_SEED);
    String fileBootstrap = workload.kafka().map(KafkaConnection::bootstrapServers).orElse(null);
    Map<String, String> common = workload.kafka().map(KafkaConnection::properties).orElse(Map.of());
    int replication =
        workload.topics().stream().mapToInt(TopicWorkload::replication).max().orElse(1);
    KafkaTarget target =
        fileBootstrap != null && given.urls().isEmpty()
            ? KafkaTarget.external(fileBootstrap)
            : KafkaTarget.fromProperties(
                replication, workload.kafka().map(KafkaConnection::embeddedDiskSize).orElse(0L));
    FusilladeRun.closeAtEnd(target); // before the protocols' components: closes after them
    // The embedded brokers' log segments on disk (directory.kafka.bytes): what retention bounds
    target
        .local()
        .ifPresent(k -> FusilladeRun.watchDirectories("kafka", k.logDirectories(), ".log"));
    // ... and, on disks of a chosen size (-Dkafka.embedded.diskSize), how full the fullest is
    // (directory.kafka.use), what 'disk not full' and 'disk < 90%' judge
    target
        .local()
        .filter(k -> !k.disks().isEmpty())
        .ifPresent(
            k -> {
              FusilladeRun.watchDiskUse("kafka", k::diskUsePercent);
              BrokerDisk disk = k.disks().get(0);
              FusilladeRun.parameters(
                  Map.of(
                      "kafka.disk",
                      (disk.mounted() ? "tmpfs of " : "quota of ")
                          + disk.size()
                          + " bytes per broker"));
            });

    FusilladeRun.settings(
        RunSettings.NONE
            .withMode(RunSettings.Mode.TOPICS)
            .withWorkload(file)
            .withSeed(seed)
            .withStages(recordedStages(workload)));
    FusilladeRun.parameters(Map.of("target", target.kind()));
    WorkloadProperties.declareChecks(given, workload);
    // One of several injectors (fusillade run --injectors N): its share of the rate here, of the
    // writers and readers in the protocol (KafkaComponents); the cluster's clock; the common start.
    InjectorShare injectors = InjectorShare.current();
    ClockOffset clock =
        injectors.alone() && injectors.startAt() == null
            ? null
            : KafkaClock.offset(target.bootstrapServers(), common);
    // the run's reference clock: the topic protocol stamps on it (KafkaComponents)
    WorkloadProperties.awaitCommonStart(injectors, clock);

    Duration drain =
        SimulationProperties.duration(
            DRAIN_PROPERTY, workload.faults().isEmpty() ? null : FAULTS_DRAIN);
    List<PopulationBuilder> populations = new ArrayList<>();
    for (TopicWorkload t : workload.topics()) {
      KafkaProtocolBuilder protocol = kafka.bootstrapServers(target.bootstrapServers()).seed(seed);
      if (drain != null) {
        protocol = protocol.drainTimeout(drain);
      }
      for (Map.Entry<String, String> e : common.entrySet()) {
        protocol = protocol.property(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : t.producer().entrySet()) {
        protocol = protocol.producer(e.getKey(), e.getValue());
      }
      for (Map.Entry<String, String> e : t.consumer().entrySet()) {
        protocol = protocol.consumer(e.getKey(), e.getValue());
      }
      TopicSpec spec = spec(t);
      TopicSink sink =
          t.sinkTable() != null
              ? SinkDatabase.sink(workload, t.sinkTable())
              : t.sinkTopic() != null
                  ? new KafkaTopicSink(
                      sinkClients(target.bootstrapServers(), common),
                      t.sinkTopic(),
                      t.partitions(),
                      t.replication())
                  : null;
      if (sink != null) {
        spec = spec.withSink(sink);
        FusilladeRun.faultTarget(LocalFaults.CONSUMER, LocalFaults.consumers(sink, t.consumers()));
      }
      protocol = protocol.topic(spec);
      TopicSendBuilder send =
          kafka(requestName(t.name())).send(t.name()).valueSize(t.messageSize());
      if (t.key().isPresent()) {
        send = send.keys(t.key().get());
      }
      PopulationBuilder population;
      // each topic's writers draw their own injected writes, from a stream of the topic's
      String topicName = t.name();
      InjectedChains injected =
          InjectedChains.of(
              workload.injected(),
              Seeds.derive(seed, topicName),
              kind -> KafkaDsl.injected(kind, topicName));
      String writers = "writers " + t.name();
      ChainBuilder write = injected.instead(exec(send));
      if (WorkloadProperties.searching()) {
        // fusillade limit: the writes' maximum sustainable rate, judged with the readers' lag.
        if (workload.topics().size() != 1) {
          throw new FusilladeException(
              file
                  + ": fusillade limit searches one topic's writes; this workload has "
                  + workload.topics().size());
        }
        LimitSettings limit = WorkloadProperties.limit(workload);
        population = FusilladeLimit.search(limit).population(writers, exec(send));
      } else if (!t.stages().isEmpty()) {
        population =
            FusilladeArrivals.of(StageInjection.of(shareOf(t.stages(), t, injectors)))
                .population(writers, write);
      } else if (t.steps() != null) {
        TopicWorkload.Steps s = t.steps();
        FusilladeRun.onEnd(
            KafkaComponents.class,
            TopicSteps.judge(
                t.name(),
                requestName(t.name()),
                TopicSteps.rising(s.start(), s.increment(), s.count(), s.duration())));
        population =
            FusilladeArrivals.of(
                    StageInjection.rising(s.start(), s.increment(), s.count(), s.duration()))
                .population(writers, write);
      } else {
        population =
            FusilladeArrivals.of(
                    List.of(Segment.constant(rateShare(t.rate(), t, injectors), t.duration())))
                .population(writers, write);
      }
      populations.add(population.protocols(protocol));
    }
    setUp(populations);
  }

  /**
   * This injector's part of a topic's rate: of a topic with {@code producers: P}, its writers'
   * share (P/N writers each, the first P mod N injectors one more), so that every writer of the
   * test sends the same rate; else 1/N.
   */
  static double rateShare(double total, TopicWorkload t, InjectorShare share) {
    if (t.producers() == 0 || share.alone()) {
      return share.rate(total);
    }
    int p = t.producers();
    int own = p / share.count() + (share.index() < p % share.count() ? 1 : 0);
    return total * own / p;
  }

  /** This injector's part of a topic's stages: each rate as {@link #rateShare} divides it. */
  static List<Stage> shareOf(List<Stage> stages, TopicWorkload t, InjectorShare share) {
    return stages.stream()
        .map(
            st ->
                new Stage(
                    rateShare(st.from(), t, share), rateShare(st.to(), t, share), st.duration()))
        .toList();
  }

  /** How a workload's topic is created and read (its sink aside). */
  static TopicSpec spec(TopicWorkload t) {
    TopicSpec spec =
        TopicSpec.of(t.name())
            .withPartitions(t.partitions())
            .withReplicationFactor(t.replication())
            .withCreate(t.create())
            .withConsumers(t.consumers())
            .withProducers(t.producers())
            .withGroup(t.group());
    if (t.replication() >= 3 && !t.configs().containsKey(MIN_INSYNC)) {
      // the replicated setting the queue teams run: with acks=all, a write survives one broker
      spec = spec.withConfig(MIN_INSYNC, "2");
    }
    for (Map.Entry<String, String> e : t.configs().entrySet()) {
      spec = spec.withConfig(e.getKey(), e.getValue());
    }
    return spec;
  }

  /** The client properties of a Kafka sink: the cluster's and the workload's common ones. */
  private static Map<String, Object> sinkClients(String bootstrap, Map<String, String> common) {
    Map<String, Object> properties = new java.util.LinkedHashMap<>(common);
    properties.put("bootstrap.servers", bootstrap);
    return properties;
  }

  /** The longest a topic of this workload writes, for launchers that need a time-out. */
  public static Duration longest(Workload workload) {
    Duration longest = Duration.ZERO;
    for (TopicWorkload t : workload.topics()) {
      Duration d = t.writing();
      longest = d.compareTo(longest) > 0 ? d : longest;
    }
    return longest;
  }

  /**
   * The stages run.json records, as {@code SqlRateRun} records {@code load.stages}: the one profile
   * every topic runs with stages. run.json has one profile, so topics with different profiles (or
   * some without stages) record none rather than one that is wrong for the others; their rates
   * still come from the injection profile.
   */
  static List<Stage> recordedStages(Workload workload) {
    List<Stage> first = workload.topics().get(0).stages();
    boolean same = workload.topics().stream().allMatch(t -> t.stages().equals(first));
    return same ? first : List.of();
  }
}
