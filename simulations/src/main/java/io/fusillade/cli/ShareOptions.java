package io.fusillade.cli;

import io.fusillade.gatling.InjectorShare;
import io.fusillade.plan.RunPlan;
import picocli.CommandLine.Option;

/**
 * A test run by several injectors: this one's share ({@code --injectors N --injector-index I}) and
 * their common start ({@code --start-at}).
 */
final class ShareOptions extends OptionGroup {
  @Option(
      names = "--injectors",
      paramLabel = "N",
      description =
          "Run the test with N injectors (N processes or machines, each given its"
              + " --injector-index): this one sends 1/N of the rate and every N-th of the seeded"
              + " requests, so that the N together send exactly what one would; 'fusillade"
              + " report' of their records is the test's report. A topic workload's injectors"
              + " share its writers and one readers' group, and need --start-at.")
  Integer injectors;

  @Option(
      names = "--injector-index",
      paramLabel = "I",
      description = "This injector's index among --injectors, from 0.")
  Integer injectorIndex;

  @Option(
      names = "--start-at",
      paramLabel = "INSTANT",
      description =
          "Start the load at this moment (ISO-8601, e.g. 2026-11-25T20:30:00Z), so that several"
              + " injectors start together; the record keeps how late each began.")
  String startAt;

  /** The share, checked: an index below the count, a start that reads. */
  InjectorShare share() {
    return new InjectorShare(
        injectors != null ? injectors : 1,
        injectorIndex != null ? injectorIndex : 0,
        startAt == null ? null : InjectorShare.instant(startAt));
  }

  /** The share as the plan carries it. */
  RunPlan.Share plan() {
    InjectorShare share = share();
    return new RunPlan.Share(share.count(), share.index(), share.startAt());
  }
}
