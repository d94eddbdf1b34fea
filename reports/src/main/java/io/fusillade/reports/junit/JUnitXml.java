package io.fusillade.reports.junit;

import static io.fusillade.reports.html.Html.escape;

import io.fusillade.reports.checks.CheckResult;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes check results as a JUnit XML report in the shape Maven Surefire writes and Jenkins' JUnit
 * plugin reads: one {@code <testsuite>} (name, tests, failures, errors, skipped, time, timestamp),
 * its {@code <properties>}, and one {@code <testcase>} (name, classname, time) per check, with a
 * {@code <failure message type>} when it failed and the measured value in {@code <system-out>}.
 */
public final class JUnitXml {
  private static final DateTimeFormatter TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private JUnitXml() {}

  /**
   * Renders the report.
   *
   * @param suite the suite name, e.g. {@code fusillade.QuickstartSimulation}
   * @param startEpochMs when the run started
   * @param durationSeconds how long it lasted
   * @param properties written as {@code <property>} elements (run id, parameters)
   * @param results one test case each
   * @return the XML document
   */
  public static String render(
      String suite,
      long startEpochMs,
      double durationSeconds,
      Map<String, String> properties,
      List<CheckResult> results) {
    long failures = results.stream().filter(r -> !r.passed()).count();
    long skipped = results.stream().filter(CheckResult::deferred).count();
    StringBuilder x = new StringBuilder(2048);
    x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    x.append(
        String.format(
            Locale.ROOT,
            "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\""
                + " time=\"%.3f\" timestamp=\"%s\">\n",
            escape(suite),
            results.size(),
            failures,
            skipped,
            durationSeconds,
            TIMESTAMP.format(Instant.ofEpochMilli(startEpochMs))));
    x.append("  <properties>\n");
    properties.forEach(
        (k, v) ->
            x.append("    <property name=\"")
                .append(escape(k))
                .append("\" value=\"")
                .append(escape(v))
                .append("\"/>\n"));
    x.append("  </properties>\n");
    for (CheckResult r : results) {
      x.append("  <testcase name=\"")
          .append(escape(r.check()))
          .append("\" classname=\"")
          .append(escape(suite))
          .append("\" time=\"0\">\n");
      if (r.deferred()) {
        x.append("    <skipped message=\"").append(escape(r.message())).append("\"/>\n");
      } else if (!r.passed()) {
        x.append("    <failure message=\"")
            .append(escape(r.message()))
            .append("\" type=\"io.fusillade.CheckFailed\">")
            .append(escape(r.message()))
            .append("</failure>\n");
      }
      x.append("    <system-out>").append(escape(r.message())).append("</system-out>\n");
      x.append("  </testcase>\n");
    }
    x.append("</testsuite>\n");
    return x.toString();
  }
}
