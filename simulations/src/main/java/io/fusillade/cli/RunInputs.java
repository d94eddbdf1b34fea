package io.fusillade.cli;

import io.fusillade.workload.Workload;
import java.nio.file.Path;

/**
 * What a command that runs a workload gathered: the workload, and the option groups the command
 * composes, null for one it does not ({@code limit} sets the load itself: no {@link RateOptions};
 * {@code ladder} too, and runs SQL only).
 *
 * @param command the command's name, for messages: {@code run}, {@code limit}, {@code ladder}
 * @param file the workload file
 * @param workload the workload, loaded and validated
 */
record RunInputs(
    String command,
    Path file,
    Workload workload,
    TargetOptions target,
    SqlOptions sql,
    SqlRequestOptions requests,
    QueriesOption queries,
    LogsOptions logs,
    RateOptions rate,
    SqlLoadOptions sqlLoad,
    ShareOptions share,
    RunControlOptions control,
    CheckOptions checks,
    OutputOptions outputs) {

  /** The same inputs for {@code workload}, once loaded. */
  RunInputs withWorkload(Workload value) {
    return new RunInputs(
        command, file, value, target, sql, requests, queries, logs, rate, sqlLoad, share, control,
        checks, outputs);
  }

  /** The same inputs with their records going elsewhere. */
  RunInputs withOutputs(OutputOptions value) {
    return new RunInputs(
        command, file, workload, target, sql, requests, queries, logs, rate, sqlLoad, share,
        control, checks, value);
  }

  /** The share of the test this injector runs: alone when the command has none. */
  io.fusillade.gatling.InjectorShare injectorShare() {
    return share == null ? io.fusillade.gatling.InjectorShare.ALONE : share.share();
  }

  /** The seed given, or null. */
  Long seed() {
    return control == null ? null : control.seed;
  }
}
