package io.fusillade.record;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * What a load-generating process asks of the run analysis (the {@code reports} module) without
 * depending on it: found with {@link java.util.ServiceLoader}, so a simulation's class path decides
 * whether a run ends with its summary table and evaluated checks or only with the path of its
 * record.
 *
 * <p>Why a service and not a call: the Gatling plugin kit sits below the reports in the module
 * graph (a user who writes simulations needs the recorder, not the statistics, HTML and JUnit
 * writers); the reports read records the recorder wrote. The kit records the run either way; with
 * an implementation on the class path it also validates checks as they are declared and prints the
 * analysis when the run ends. Without one, {@code fusillade report RUN_DIR} does both later.
 *
 * <p>Implementations have a public no-argument constructor and are listed in {@code
 * META-INF/services/io.fusillade.record.RunAnalysis}; they must be thread-safe (the end-of-run
 * analysis runs in a JVM shutdown hook).
 */
public interface RunAnalysis {

  /**
   * Checks the syntax of a check (an SLO such as {@code "p99 < 50ms"}) when a simulation declares
   * it, so a typo fails the simulation before it runs.
   *
   * @param check the check's text
   * @throws io.fusillade.FusilladeException naming the check and the position of the mistake
   */
  void validateCheck(String check);

  /**
   * Analyses a finished run: writes what the analysis writes beside the record (the report), prints
   * the run's summary table and each check's verdict to {@code out}, and returns the verdicts.
   * Problems are reported, not thrown: the run is over and its record is kept whatever happens
   * here.
   *
   * @param runDirectory the run's record, closed
   * @param out where to print
   * @return each check's verdict, "run completed" first; a failed verdict of its own when the
   *     record cannot be analysed
   */
  List<CheckVerdict> finish(Path runDirectory, PrintStream out);
}
