package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.Secrets;
import io.fusillade.gatling.metrics.InfluxPush;
import io.fusillade.plan.RunPlan;
import io.fusillade.record.SettingValues;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Where a run's record, its reports and its live metrics go: {@code --output} (a directory, or an
 * S3 prefix the record is uploaded to), Gatling's own report, the Prometheus endpoint, the InfluxDB
 * push, and a JFR profile of the injector.
 */
final class OutputOptions extends OptionGroup {
  /** Where the run records go: {@code --output}'s directory, or a local one for a bucket. */
  Path output = Path.of("fusillade-results");

  /** The bucket of {@code --output s3://...}, or null. */
  S3Records.Location outputBucket;

  @Option(
      names = "--output",
      paramLabel = "DIR|s3://BUCKET/PREFIX",
      defaultValue = "fusillade-results",
      description =
          "The directory the run records and their reports go under (default: ${DEFAULT-VALUE});"
              + " s3://BUCKET/PREFIX uploads them there when the run ends (endpoint:"
              + " FUSILLADE_S3_ENDPOINT for an S3-compatible store; credentials:"
              + " AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY).")
  void output(String value) throws IOException {
    if (S3Records.Location.is(value)) {
      outputBucket = S3Records.Location.parse(value);
      output = Files.createTempDirectory("fusillade-s3-");
    } else {
      outputBucket = null;
      output = Path.of(value);
    }
  }

  @Option(
      names = "--gatling-report",
      description =
          "Also write Gatling's simulation.log and HTML report under OUTPUT/gatling (Fusillade's"
              + " report is always written; Gatling's costs CPU per request and a parse at the"
              + " end that grows with the run).")
  boolean gatlingReport;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      description =
          "Serve live Prometheus metrics of the run on http://host:PORT/metrics while it runs"
              + " (0: any free port, printed at the start).")
  Integer metricsPort;

  @Option(
      names = "--metrics-hold",
      paramLabel = "DURATION",
      description =
          "With --metrics-port: keep the endpoint up this long after the run, so that a last"
              + " scrape sees its totals: 15s, 1m... (default 0s).")
  String metricsHold;

  @Option(
      names = "--influx-url",
      paramLabel = "URL",
      description =
          "Push each second of the run to InfluxDB (line protocol) at this write URL:"
              + " http://host:8086/write?db=NAME (1.x) or"
              + " http://host:8086/api/v2/write?org=O&bucket=B (2.x, 3.x; token in "
              + InfluxPush.TOKEN_VARIABLE
              + ").")
  String influxUrl;

  @Option(
      names = "--jfr",
      description =
          "Record a Java Flight Recorder profile of the load generator into the run record"
              + " (profile.jfr, linked from the report): where the injector's CPU goes.")
  boolean jfr;

  /** Checks each value, naming the option: before anything starts. */
  void validate() {
    if (outputBucket == null && Files.exists(output) && !Files.isDirectory(output)) {
      throw new FusilladeException(
          "--output " + output + " is a file; it must be a directory (made if missing)");
    }
    if (metricsPort != null && (metricsPort < 0 || metricsPort > 65535)) {
      throw new FusilladeException("--metrics-port must be 0-65535, got " + metricsPort);
    }
    if (metricsHold != null && metricsPort == null) {
      throw new FusilladeException("--metrics-hold needs --metrics-port");
    }
    metricsHold();
    if (influxUrl != null
        && !(influxUrl.startsWith("http://") || influxUrl.startsWith("https://"))) {
      throw new FusilladeException(
          "--influx-url: \""
              + Secrets.mask(influxUrl)
              + "\" is not an http(s) URL (example: http://localhost:8086/write?db=fusillade)");
    }
  }

  private Duration metricsHold() {
    if (metricsHold == null) {
      return null;
    }
    try {
      Duration parsed = SettingValues.parseDuration(metricsHold);
      if (parsed.isNegative()) {
        throw new IllegalArgumentException();
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(
          "--metrics-hold: \"" + metricsHold + "\" is not a duration (examples: 15s, 1m)");
    }
  }

  /** The live metrics as the plan carries them. */
  RunPlan.Live live() {
    return new RunPlan.Live(metricsPort, null, metricsHold(), influxUrl);
  }

  /** The same outputs into {@code directory}: the runs of a ladder, each its record there. */
  OutputOptions into(Path directory) {
    OutputOptions copy = new OutputOptions();
    copy.output = directory;
    copy.gatlingReport = gatlingReport;
    copy.metricsPort = metricsPort;
    copy.metricsHold = metricsHold;
    copy.influxUrl = influxUrl;
    copy.jfr = jfr;
    return copy;
  }

  /**
   * Refuses a bucket for a command that reads its runs back (a ladder): they stay in a directory.
   */
  void refuseBucket(String commandName) {
    if (outputBucket != null) {
      throw new FusilladeException(
          "--output "
              + outputBucket
              + ": fusillade "
              + commandName
              + " reads its runs back from a directory; upload them afterwards, or use fusillade"
              + " run");
    }
  }
}
