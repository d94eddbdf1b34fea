package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.abort.AbortRule;
import io.fusillade.fault.Fault;
import io.fusillade.system.ServerTarget;
import io.fusillade.workload.Workload;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * What every run may be given beside its load: the seed, abort rules, faults, and what to watch
 * beside the requests (processes, servers' metrics endpoints). Each is laid beside the workload's
 * own ({@code abort:}, {@code faults:}, {@code monitor:}).
 */
final class RunControlOptions extends OptionGroup {
  @Option(names = "--seed", description = "The seed (default: the workload's, or 1).")
  Long seed;

  @Option(
      names = "--abort-when",
      paramLabel = "RULE",
      description =
          "Stop the run while it is under way when a rule holds over its window, beside the"
              + " workload's abort: list: 'errors > 5%% over 10s', 'p99 > 2s over 30s'"
              + " (repeatable). The run ends as aborted, its reports are written, and the"
              + " command exits 4.")
  List<String> abortWhen = new ArrayList<>();

  @Option(
      names = "--fault",
      paramLabel = "FAULT",
      description =
          "Schedule a fault during the run, beside the workload's faults: list: 'at 30s pause"
              + " broker 2 for 10s', 'at 60s kill postgres for 5s', 'at 90s restart broker 1' on"
              + " the embedded servers, 'at 20s run: COMMAND' for any other (repeatable). Each is"
              + " recorded, shaded on the report's charts and measured by 'recovery < 10s after"
              + " \"kill broker 1\"'.")
  List<String> faults = new ArrayList<>();

  @Option(
      names = "--watch-process",
      paramLabel = "NAME",
      description =
          "Record the CPU and memory of the processes of this command name (and their children)"
              + " beside the machine's, e.g. postgres (repeatable).")
  List<String> watchProcesses = new ArrayList<>();

  @Option(
      names = "--monitor",
      paramLabel = "NAME=URL",
      description =
          "Record a server's metrics second by second beside the requests, from its Prometheus"
              + " endpoint (node_exporter, cAdvisor, postgres_exporter, the JMX exporter, or"
              + " 'fusillade agent'), beside the workload's monitor: list, e.g."
              + " db=http://db1:9100/metrics (repeatable). Checked by 'server cpu.steal < 5%%'.")
  List<String> monitor = new ArrayList<>();

  /** The workload's abort rules, then {@code --abort-when}'s, each checked. */
  List<String> abortRules(Workload workload) {
    List<String> rules = new ArrayList<>();
    workload.abort().forEach(rule -> rules.add(rule.text()));
    for (String rule : abortWhen) {
      try {
        rules.add(AbortRule.parse(rule).text());
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--abort-when: " + e.getMessage());
      }
    }
    return List.copyOf(rules);
  }

  /** The workload's faults, then {@code --fault}'s, each checked. */
  List<Fault> faults(Workload workload) {
    List<Fault> all = new ArrayList<>(workload.faults());
    for (String fault : faults) {
      try {
        all.add(Fault.parse(fault));
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--fault: " + e.getMessage());
      }
    }
    return List.copyOf(all);
  }

  /** The workload's {@code monitor} servers, then {@code --monitor}'s, each checked. */
  List<ServerTarget> monitored(Workload workload) {
    List<ServerTarget> targets = new ArrayList<>(workload.monitor());
    for (String given : monitor) {
      try {
        targets.add(ServerTarget.parse(given));
      } catch (IllegalArgumentException e) {
        throw new FusilladeException("--monitor: " + e.getMessage());
      }
    }
    Set<String> names = new HashSet<>();
    for (ServerTarget t : targets) {
      if (!names.add(t.name())) {
        throw new FusilladeException(
            "--monitor: a server named \"" + t.name() + "\" is already monitored");
      }
    }
    return List.copyOf(targets);
  }
}
