package io.fusillade.gatling;

import io.fusillade.record.RunRecorder;
import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Profiles the load generator itself while it runs ({@code -Dfusillade.profile=true}, {@code
 * fusillade run --profile}): a Java Flight Recorder recording with the JDK's {@code profile}
 * settings (CPU samples every 10 ms, allocations, locks, GC), written into the run record as
 * {@value #FILE} when the run ends, and named in {@code run.json} ({@code profile}) so the report
 * links it. Where the injector's CPU goes (our clients, Gatling, the recorder) is then one file
 * away: {@code jfr print --events jdk.ExecutionSample profile.jfr}, or JDK Mission Control.
 */
final class Profiling {
  private static final Logger LOG = LoggerFactory.getLogger(Profiling.class);

  /** The recording's file name in the run record. */
  static final String FILE = "profile.jfr";

  private Profiling() {}

  /** Starts the recording for {@code run} when the plan asks for it. */
  static void startIfAsked(RunRecorder run, boolean asked) {
    if (!asked) {
      return;
    }
    Path file = run.directory().resolve(FILE);
    Recording recording;
    try {
      recording = new Recording(Configuration.getConfiguration("profile"));
      recording.setName("fusillade " + run.runId());
      recording.setDestination(file);
      recording.setToDisk(true);
      recording.setDumpOnExit(true); // a killed or aborted run keeps what was recorded
      recording.start();
    } catch (IOException | ParseException | RuntimeException e) {
      LOG.warn("Could not start the JFR profile of the run: {}", e.toString());
      return;
    }
    run.parameter("profile", FILE);
    run.onFinish(
        () -> {
          try {
            recording.stop(); // writes the destination
          } catch (RuntimeException e) {
            LOG.warn("Could not write the JFR profile to {}: {}", file, e.toString());
          } finally {
            recording.close();
          }
        });
    LOG.info("Profiling the load generator with JFR into {}", file);
  }
}
