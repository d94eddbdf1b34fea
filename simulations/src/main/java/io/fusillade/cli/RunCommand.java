package io.fusillade.cli;

import io.fusillade.record.RunRecordReader;
import io.fusillade.reports.runs.AdaptiveResults;
import io.fusillade.workload.Workload;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade run WORKLOAD}: runs a workload's load with Gatling in a forked JVM. It composes
 * the option groups that apply to a run ({@link RunInputs}); the workload's kind refuses those of
 * other kinds ({@link WorkloadKind}); {@link RunPlanner} resolves everything into the run's plan,
 * {@link ForkedRun} runs it, and {@link ExitLine} says how it ended, once.
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs a workload: SQL queries, topics, or log ingest and searches.",
      "A workload's SQL queries run in queue mode (each of N users runs its share of the seeded,",
      "shuffled query queue once) or at a constant arrival rate (with an optional spike).",
      "Without --url and without a connection section, an embedded PostgreSQL is started, and",
      "the tables are created and filled first. The password comes from the environment variable "
          + DatabaseOptions.PASSWORD_VARIABLE
          + ".",
      "A workload with a logs section (and no queries) runs its log ingest and searches instead;",
      "one with topics produces and consumes them. Options of another kind of workload are",
      "refused, naming the kind they apply to.",
      "The workload's load section (mode, users, rate, duration, spike, stages) gives what the",
      "options do not. Its checks: and --check are evaluated after the run: exit code 3 when one",
      "fails, 1 when the run failed. Without either, default checks apply (errors < 1%%,",
      "injector not saturated...: the console names them); checks: [] opts out.",
      "An abort: list or --abort-when stops the run when a rule holds ('errors > 5%% over 10s'):",
      "the record says aborted with the rule, the reports are written, the exit code is 4.",
      "A faults: list or --fault schedules faults ('at 30s pause broker 2 for 10s',",
      "'at 20s run: COMMAND'): each is an event of the record and a band on the report's charts.",
      "Every run has a deadline (its load, its drain and 2 minutes): past it, it is stopped and",
      "fails. Ctrl-C or SIGTERM stops the load, writes the reports and exits 130 or 143; a",
      "second Ctrl-C exits at once. The last line says how the run ended and its exit code."
    })
final class RunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

  @Mixin TargetOptions target = new TargetOptions();
  @Mixin RateOptions rate = new RateOptions();
  @Mixin SqlLoadOptions sqlLoad = new SqlLoadOptions();
  @Mixin SqlOptions sql = new SqlOptions();
  @Mixin SqlRequestOptions requests = new SqlRequestOptions();
  @Mixin QueriesOption querySet = new QueriesOption();
  @Mixin LogsOptions logs = new LogsOptions();
  @Mixin CheckOptions checks = new CheckOptions();
  @Mixin RunControlOptions control = new RunControlOptions();
  @Mixin ShareOptions share = new ShareOptions();
  @Mixin OutputOptions outputs = new OutputOptions();

  /** The inputs of this command, before the workload is read. */
  RunInputs inputs() {
    return new RunInputs(
        "run", file, null, target, sql, requests, querySet, logs, rate, sqlLoad, share, control,
        checks, outputs);
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    RunInputs in = inputs();
    RunPlanner.validateGroups(in); // a wrong option fails before the file is read
    Workload workload = querySet.select(WorkloadFiles.load(file));
    in = in.withWorkload(workload);
    RunPlanner.Planned planned = RunPlanner.plan(in, null, null, out);
    planned.kind().checkReachable(in, planned.settings());
    ForkedRun.Outcome outcome = ForkedRun.run(planned.runner(), planned.plan(), outputs, out, err);
    if (planned.plan().adaptive() != null && outcome.record().isPresent()) {
      // The run's result is the rate it settled at: said before how it ended.
      Object curve =
          RunRecordReader.read(outcome.record().get()).manifest().parameters().get("adaptive");
      AdaptiveResults.of(curve).ifPresent(r -> out.println("fusillade: adaptive: " + r.describe()));
      out.flush();
    }
    return ExitLine.print(outcome, out, err);
  }
}
