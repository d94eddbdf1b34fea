package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.RunSettings;
import io.fusillade.reports.checks.RunShape;
import io.fusillade.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A kind of workload ({@link SqlKind}, {@link TopicKind}, {@link LogsKind}): what a run of it takes
 * from the command line and gives the forked JVM. Each kind owns its options (it refuses the option
 * groups of the others), its validation against the workload, its default checks, the local servers
 * its faults may act on, and the simulation that runs it, so that {@code run}, {@code limit} and
 * {@code ladder} compose the same pieces instead of each knowing every kind.
 */
sealed interface WorkloadKind permits SqlKind, TopicKind, LogsKind {
  /** How the console names the kind: {@code SQL}, {@code topic}, {@code logs}. */
  String label();

  /**
   * The settings the run gets: the options over the workload's, checked against it; a setting that
   * cannot apply to this workload is a user error.
   */
  RunSettings settings(RunInputs in);

  /** The checks the run gets when it declares none. */
  DefaultChecks defaults(RunInputs in, RunSettings settings);

  /** What the checks will be judged on: whether the run has a target rate, reads topics. */
  RunShape shape(RunInputs in, RunSettings settings);

  /**
   * The local servers the run will start and their nodes, by the name faults give them ({@code
   * postgres}, {@code broker}, {@code opensearch}, {@code consumer}); empty when the system under
   * test is given.
   */
  Map<String, Integer> faultNodes(RunInputs in);

  /** Fails, naming the endpoint, when the system under test cannot be reached: before the fork. */
  void checkReachable(RunInputs in, RunSettings settings);

  /** The plan with this kind's own sections filled in. */
  RunPlan plan(RunPlan plan, RunInputs in);

  /** The simulation that runs this workload, or searches its limit when {@code limit}. */
  Class<?> runner(RunSettings settings, boolean limit);

  /**
   * How long the load lasts once started, or null when it cannot be known before the run (a queue
   * of queries, a number of documents).
   */
  Duration loadLength(RunSettings settings, RunInputs in);

  /** How long the run may take after its load, for its last requests and its readers to end. */
  Duration drain(RunInputs in);

  /** The highest arrival rate the load asks of this injector, per second; 0 when it has none. */
  double peakRate(RunSettings settings, RunInputs in);

  /**
   * The kind of {@code in}'s workload, from its sections; refuses the option groups of the other
   * kinds that were given.
   *
   * @throws FusilladeException when the workload has none or several kinds, or an option of another
   *     kind was given
   */
  static WorkloadKind of(RunInputs in) {
    Workload workload = in.workload();
    List<WorkloadKind> kinds = new ArrayList<>();
    if (!workload.queries().isEmpty()) {
      kinds.add(new SqlKind());
    }
    if (workload.logs().isPresent()) {
      kinds.add(new LogsKind());
    }
    if (!workload.topics().isEmpty()) {
      kinds.add(new TopicKind());
    }
    if (kinds.size() > 1) {
      throw new FusilladeException(
          in.file()
              + ": has more than one of queries, a logs section and topics; fusillade "
              + in.command()
              + " runs one kind of workload: put them in separate files");
    }
    if (kinds.isEmpty()) {
      throw new FusilladeException(in.file() + ": no queries, logs section or topics to run");
    }
    WorkloadKind kind = kinds.get(0);
    kind.refuseOthers(in);
    return kind;
  }

  /** Refuses the options of the other kinds that were given, saying which this one takes. */
  void refuseOthers(RunInputs in);

  /** Refuses a group's given options as not applying to this kind. */
  default void refuse(OptionGroup group, RunInputs in, String whose) {
    if (group != null) {
      group.refuse(
          "appl"
              + (group.given().size() == 1 ? "ies" : "y")
              + " to "
              + whose
              + "; "
              + in.file()
              + " is a "
              + label()
              + " workload");
    }
  }
}
