package io.fusillade.reports.checks;

import java.util.List;

/**
 * What kind of run a check will be judged on, known before it starts: whether it has one target
 * rate (an open model: rate mode, a limit search's steps, a log ingest at a rate; not a queue of
 * queries, not a ladder's sessions), whether topics are read (delivery and lag need readers), and
 * its faults (a recovery is measured after one). {@link Check#inapplicable} says why a check cannot
 * be judged on such a run, so that it is refused before the run rather than failed after.
 *
 * @param targetRate whether the run has a target arrival rate
 * @param topicReaders whether the run reads topics
 * @param faults the texts of its scheduled faults
 */
public record RunShape(boolean targetRate, boolean topicReaders, List<String> faults) {
  /** Copies the list. */
  public RunShape {
    faults = List.copyOf(faults);
  }
}
