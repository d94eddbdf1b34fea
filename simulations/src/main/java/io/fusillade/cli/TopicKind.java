package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.record.RunSettings.Mode;
import io.fusillade.record.RunSettings.Stage;
import io.fusillade.reports.checks.RunShape;
import io.fusillade.scenarios.LocalFaults;
import io.fusillade.scenarios.topic.TopicWorkloadSimulation;
import io.fusillade.workload.KafkaConnection;
import io.fusillade.workload.TopicWorkload;
import io.fusillade.workload.Workload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload of topics: their writers and readers at the rates the file gives; on the {@code --url}
 * bootstrap servers, the workload's {@code kafka} section, or an embedded Kafka (three brokers when
 * a topic's replication is above 1).
 */
record TopicKind() implements WorkloadKind {
  /** The longest the readers may take after the writes, with faults: a group catching up. */
  private static final Duration DRAIN = Duration.ofSeconds(60);

  @Override
  public String label() {
    return "topic";
  }

  @Override
  public void refuseOthers(RunInputs in) {
    refuse(in.sql(), in, "SQL workloads");
    SqlLoadOptions.refuseAdaptive(in, label());
    refuse(in.sqlLoad(), in, "SQL workloads");
    refuse(in.logs(), in, "logs workloads");
    if (in.rate() != null) {
      in.rate()
          .refuse(
              "set the rate of SQL and logs workloads; a topic's writers write at the rate:,"
                  + " steps: or stages: of its section in "
                  + in.file());
    }
    InjectorShare share = in.injectorShare();
    if (!share.alone()) {
      if (!in.command().equals("run")) {
        throw new FusilladeException(
            "--injectors: fusillade "
                + in.command()
                + " of a topic searches on one injector; several run a topic workload with"
                + " fusillade run");
      }
      if (share.startAt() == null) {
        throw new FusilladeException(
            "--injectors "
                + share.count()
                + " for "
                + in.file()
                + "'s topics needs --start-at: the injectors' readers share one group and their"
                + " messages one run, both named after the common start");
      }
      refuseSplit(in.workload(), in.file().toString(), share.count());
    }
    if (in.target().urlGiven()
        && in.workload().kafka().map(KafkaConnection::embeddedDiskSize).orElse(0L) > 0) {
      throw new FusilladeException(
          "--url: "
              + in.file()
              + "'s kafka.embedded_disk_size is for the embedded brokers; the disks of the"
              + " cluster at --url are its own (drop one of them)");
    }
    if (in.target().user != null) {
      throw new FusilladeException(
          "--user applies to SQL workloads; a Kafka cluster's credentials go in the workload's"
              + " kafka section");
    }
  }

  /**
   * Refuses, before any injector starts, what a topic workload cannot split over {@code injectors}
   * injectors: steps (judged on one injector's delivery counts), sinks (their consumers are faults'
   * targets on one machine), and fewer writers than injectors.
   *
   * @param where the file, for messages
   */
  static void refuseSplit(Workload workload, String where, int injectors) {
    for (TopicWorkload t : workload.topics()) {
      String topic = where + ": topic " + t.name() + ": ";
      if (t.steps() != null) {
        throw new FusilladeException(
            topic
                + "steps: are judged on one injector's delivery counts; over --injectors "
                + injectors
                + " give it a rate: or stages:");
      }
      if (t.sinkTable() != null || t.sinkTopic() != null) {
        throw new FusilladeException(
            topic + "a sink's readers run on one injector; run it without --injectors");
      }
      if (t.producers() > 0 && t.producers() < injectors) {
        throw new FusilladeException(
            topic
                + "producers: "
                + t.producers()
                + " cannot be shared by --injectors "
                + injectors
                + " (each injector writes through its own): give producers: "
                + injectors
                + " or more");
      }
    }
  }

  private static boolean external(RunInputs in) {
    return in.target().urlGiven()
        || in.workload().kafka().map(k -> k.bootstrapServers()).isPresent();
  }

  @Override
  public RunSettings settings(RunInputs in) {
    return RunSettings.NONE
        .withMode(Mode.TOPICS)
        .withWorkload(in.file())
        .withSeed(in.seed())
        .withUrls(in.target().urls);
  }

  @Override
  public DefaultChecks defaults(RunInputs in, RunSettings settings) {
    return DefaultChecks.topics(in.workload().topics());
  }

  @Override
  public RunShape shape(RunInputs in, RunSettings settings) {
    List<TopicWorkload> topics = in.workload().topics();
    boolean target =
        in.command().equals("limit")
            || topics.stream()
                .allMatch(t -> t.rate() != null || t.steps() != null || !t.stages().isEmpty());
    boolean readers = topics.stream().anyMatch(t -> t.consumers() > 0);
    return new RunShape(target, readers, List.of());
  }

  @Override
  public Map<String, Integer> faultNodes(RunInputs in) {
    Map<String, Integer> nodes = new LinkedHashMap<>();
    if (!external(in)) {
      int replication =
          in.workload().topics().stream().mapToInt(TopicWorkload::replication).max().orElse(1);
      nodes.put(LocalFaults.BROKER, replication > 1 ? 3 : 1);
    }
    for (TopicWorkload topic : in.workload().topics()) {
      if (topic.sinkTable() != null || topic.sinkTopic() != null) {
        nodes.put(LocalFaults.CONSUMER, topic.consumers());
      }
      if (topic.sinkTable() != null && in.workload().connection().isEmpty()) {
        nodes.put(LocalFaults.POSTGRES, 1);
      }
    }
    return nodes;
  }

  @Override
  public void checkReachable(RunInputs in, RunSettings settings) {
    // Fail before forking, in one line, when the cluster cannot be reached (not the embedded one).
    Map<String, String> properties =
        in.workload().kafka().map(k -> k.properties()).orElse(Map.of());
    if (in.target().urlGiven()) {
      KafkaBootstrap.checkReachable(String.join(",", in.target().urls), properties, "--url");
    } else if (in.workload().kafka().map(KafkaConnection::bootstrapServers).isPresent()) {
      KafkaBootstrap.checkReachable(
          in.workload().kafka().get().bootstrapServers(),
          properties,
          in.file() + ": kafka.bootstrap_servers");
    }
  }

  @Override
  public RunPlan plan(RunPlan plan, RunInputs in) {
    return plan;
  }

  @Override
  public Class<?> runner(RunSettings settings, boolean limit) {
    return TopicWorkloadSimulation.class;
  }

  @Override
  public Duration loadLength(RunSettings settings, RunInputs in) {
    Duration longest = Duration.ZERO;
    for (TopicWorkload t : in.workload().topics()) {
      Duration length;
      if (!t.stages().isEmpty()) {
        length = t.stages().stream().map(Stage::duration).reduce(Duration.ZERO, Duration::plus);
      } else if (t.steps() != null) {
        length = t.steps().duration().multipliedBy(t.steps().count());
      } else {
        length = t.duration();
      }
      if (length == null) {
        return null;
      }
      longest = length.compareTo(longest) > 0 ? length : longest;
    }
    return longest;
  }

  @Override
  public Duration drain(RunInputs in) {
    return DRAIN;
  }

  @Override
  public double peakRate(RunSettings settings, RunInputs in) {
    double total = 0;
    for (TopicWorkload t : in.workload().topics()) {
      double peak = t.rate() != null ? t.rate() : 0;
      if (t.steps() != null) {
        peak = Math.max(peak, t.steps().start() + t.steps().increment() * (t.steps().count() - 1));
      }
      for (Stage stage : t.stages()) {
        peak = Math.max(peak, Math.max(stage.from(), stage.to()));
      }
      total += peak;
    }
    return total / in.injectorShare().count();
  }
}
