package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.Secrets;
import io.fusillade.reports.html.TrendPage;
import io.fusillade.reports.runs.RunData;
import io.fusillade.reports.runs.RunMetrics;
import io.fusillade.reports.runs.Trend;
import io.fusillade.reports.stats.Comparison;
import io.fusillade.reports.stats.ConfidenceInterval;
import io.fusillade.reports.stats.changepoint.ChangePoints;
import io.fusillade.reports.trend.ChatMessage;
import io.fusillade.reports.trend.ChatWebhook;
import io.fusillade.reports.trend.Period;
import io.fusillade.reports.trend.PeriodReport;
import io.fusillade.reports.trend.PeriodText;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade trend HISTORY... [--output DIR]}, and with {@code --period} the
 * period-over-period report of a scheduled history ({@link PeriodReport}), optionally posted to a
 * chat ({@code --notify URL}).
 */
@Command(
    name = "trend",
    mixinStandardHelpOptions = true,
    description = {
      "Charts change points over runs, or reports period over period.",
      "For a history of runs of one simulation (one per build), ordered by start time: per metric",
      "a chart over the runs with its change points (E-divisive, permutation test), written to",
      "trend.html, and the list of change points with the run where each began.",
      "With --period 24h: per test (workload, else simulation), the runs of the last period",
      "against those of the period before (rate, p50, p99, errors, delivery; Welch's test and the",
      "threshold, as compare) and the change points that begin in it, printed and written as",
      "trend-24h.md and trend-24h.json; --notify posts it to a chat webhook. Exit code 3 when a",
      "verdict is worse."
    })
final class TrendCommand implements Callable<Integer> {
  /** How long a chat webhook is given to connect, then to answer. */
  static final Duration NOTIFY_TIMEOUT = Duration.ofSeconds(10);

  @Spec CommandSpec spec;

  @Parameters(
      arity = "1..*",
      paramLabel = "HISTORY",
      description =
          "directories of runs (or run directories), or s3://BUCKET/PREFIX: every run record under"
              + " it")
  List<String> directories;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "DIR",
      description =
          "where to write trend.html, or the period report (default: the first HISTORY directory;"
              + " fusillade-trend for a bucket)")
  Path output;

  @Option(
      names = "--period",
      paramLabel = "PERIOD",
      description =
          "report the last PERIOD (30m, 4h, 24h, 7d) against the one before, per test, instead of"
              + " the chart")
  String period;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description =
          "the end of the last period, such as 2026-11-27T10:00:00Z (default: now); with --period")
  String until;

  @Option(
      names = "--threshold",
      paramLabel = "PERCENT",
      description = "smallest change that is worse or better (default 5%%); with --period")
  String threshold;

  @Option(
      names = "--notify",
      paramLabel = "URL",
      description =
          "post the period report to this chat webhook (Slack, Mattermost: {\"text\": ...}); a"
              + " failure to post is a warning; with --period")
  String notify;

  @Option(
      names = "--notify-template",
      paramLabel = "FILE",
      description =
          "the message's text, with fields such as {{verdict}}, {{summary}}, {{report}} (see"
              + " src/site/reports.md); with --notify")
  Path notifyTemplate;

  @Override
  public Integer call() {
    refuseWithoutPeriod();
    // Everything the user typed is checked before the history is read.
    Period length = period == null ? null : Period.parse(period);
    Instant end = until == null ? Instant.now() : instant(until);
    Comparison.Settings settings = settings();
    ChatWebhook webhook = notify == null ? null : ChatWebhook.of(notify, NOTIFY_TIMEOUT);
    ChatMessage message =
        notifyTemplate == null ? ChatMessage.plain() : ChatMessage.template(notifyTemplate);
    List<Path> temporaries = new ArrayList<>();
    try {
      List<Path> runDirectories = S3Records.localCopies(directories, Path::of, temporaries);
      boolean fromBucket = directories.stream().anyMatch(S3Records.Location::is);
      Path out =
          output != null
              ? output
              : fromBucket ? Path.of("fusillade-trend") : Path.of(directories.get(0));
      List<RunData> runs = RunMetrics.load(runDirectories);
      if (length == null) {
        return chart(runs, out);
      }
      return periods(runs, length, end, settings, out, webhook, message);
    } finally {
      temporaries.forEach(S3Records::deleteQuietly);
    }
  }

  private Comparison.Settings settings() {
    if (threshold == null) {
      return Comparison.Settings.DEFAULTS;
    }
    try {
      return new Comparison.Settings(
          Comparison.Settings.DEFAULTS.alpha(),
          CompareCommand.fraction("--threshold", threshold),
          ConfidenceInterval.DEFAULT_CV_WARNING_THRESHOLD);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException("--threshold: " + e.getMessage());
    }
  }

  private void refuseWithoutPeriod() {
    if (period != null) {
      if (notifyTemplate != null && notify == null) {
        throw new FusilladeException("--notify-template: only with --notify");
      }
      return;
    }
    for (String[] option :
        new String[][] {
          {"--until", until},
          {"--threshold", threshold},
          {"--notify", notify},
          {"--notify-template", notifyTemplate == null ? null : notifyTemplate.toString()}
        }) {
      if (option[1] != null) {
        throw new FusilladeException(
            option[0] + ": only with --period (the chart of change points has no periods)");
      }
    }
  }

  private int chart(List<RunData> runs, Path out) {
    Trend trend = Trend.of(runs, ChangePoints.Settings.DEFAULTS);
    Path page = out.resolve(TrendPage.FILE);
    try {
      TrendPage.write(trend, "Fusillade trend: " + shown(directories.get(0)), out);
    } catch (IOException e) {
      throw new FusilladeException("cannot write " + page + ": " + e.getMessage(), e);
    }
    spec.commandLine().getOut().print(trend.render());
    spec.commandLine().getOut().println("Trend: " + page.toAbsolutePath());
    spec.commandLine().getOut().flush();
    return 0;
  }

  private int periods(
      List<RunData> runs,
      Period length,
      Instant end,
      Comparison.Settings settings,
      Path out,
      ChatWebhook webhook,
      ChatMessage message) {
    String history = String.join(", ", directories.stream().map(TrendCommand::shown).toList());
    PeriodReport report =
        PeriodReport.of(runs, length, end, history, settings, ChangePoints.Settings.DEFAULTS);
    String markdown = PeriodText.markdown(report);
    Path md = out.resolve("trend-" + length.text() + ".md");
    Path json = out.resolve("trend-" + length.text() + ".json");
    try {
      Files.createDirectories(out);
      Files.writeString(md, markdown);
      Files.writeString(json, PeriodText.json(report));
    } catch (IOException e) {
      throw new FusilladeException("cannot write the period report into " + out + ": " + e, e);
    }
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.print(markdown);
    stdout.println();
    stdout.println("Period report: " + md.toAbsolutePath() + ", " + json.getFileName());
    if (webhook != null) {
      Optional<String> failure = webhook.post(message.body(report));
      stdout.println(failure.orElse("Posted to the " + webhook + "."));
    }
    stdout.flush();
    return report.anyWorse() ? FusilladeCommand.CHECK_FAILED : 0;
  }

  /** A history as it may be shown: a bucket or a path, with any secret in it masked. */
  private static String shown(String history) {
    return Secrets.mask(history);
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text.strip());
    } catch (DateTimeParseException e) {
      throw new FusilladeException(
          "--until: '" + text + "' is not a time such as 2026-11-27T10:00:00Z (UTC, ISO-8601)");
    }
  }
}
