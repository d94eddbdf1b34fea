package io.fusillade.reports.trend;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fusillade.FusilladeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chat message of a {@link PeriodReport}: a Slack- and Mattermost-compatible incoming-webhook
 * body, {@code {"text": "..."}}. The text is the Markdown report, or a template's, whose named
 * fields {@code {{name}}} are filled from the report ({@link #FIELDS}).
 */
public final class ChatMessage {
  private static final Pattern FIELD = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The fields a template may name, and what each holds (documented in src/site/reports.md). */
  public static final Map<String, String> FIELDS = fields();

  private final String template;

  private ChatMessage(String template) {
    this.template = template;
  }

  private static Map<String, String> fields() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("title", "the report's first line: the period, its end, and what it is compared with");
    f.put("verdict", "WORSE: n verdicts worse in m of k tests, or nothing worse; with the rule");
    f.put(
        "summary",
        "one line per test (its runs in both periods, how many verdicts worse)"
            + " and, under it, its WORSE lines");
    f.put("report", "the whole Markdown report");
    f.put("period", "the period as given: 24h");
    f.put("from", "the start of this period, yyyy-MM-dd HH:mm UTC");
    f.put("until", "the end of this period, yyyy-MM-dd HH:mm UTC");
    f.put("history", "where the runs were read from");
    f.put("tests", "how many tests the history holds");
    f.put("worse", "how many verdicts are worse (0 when none)");
    return Map.copyOf(f);
  }

  /**
   * The message without a template: the Markdown report as its text.
   *
   * @return the message
   */
  public static ChatMessage plain() {
    return new ChatMessage("{{report}}");
  }

  /**
   * Reads a template, checking every field it names.
   *
   * @param file the template
   * @return the message
   * @throws FusilladeException naming the file, the line and the field of an unknown field, or the
   *     file when it cannot be read
   */
  public static ChatMessage template(Path file) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new FusilladeException("--notify-template: no such file: " + file);
    } catch (IOException e) {
      throw new FusilladeException(
          "--notify-template: cannot read " + file + ": " + e.getMessage());
    }
    List<String> lines = text.lines().toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = FIELD.matcher(lines.get(i));
      while (m.find()) {
        if (!FIELDS.containsKey(m.group(1))) {
          throw new FusilladeException(
              file
                  + " line "
                  + (i + 1)
                  + ": unknown field {{"
                  + m.group(1)
                  + "}} (the fields: "
                  + String.join(", ", new java.util.TreeSet<>(FIELDS.keySet()))
                  + ")");
        }
      }
    }
    return new ChatMessage(text);
  }

  /**
   * The message's text for a report.
   *
   * @param report the report
   * @return the template with its fields filled
   */
  public String text(PeriodReport report) {
    Map<String, String> values = values(report);
    Matcher m = FIELD.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(values.get(m.group(1))));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * The webhook's body: {@code {"text": ...}}, as Slack's and Mattermost's incoming webhooks take.
   *
   * @param report the report
   * @return JSON
   */
  public String body(PeriodReport report) {
    ObjectNode root = JSON.createObjectNode();
    root.put("text", text(report));
    try {
      return JSON.writeValueAsString(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> values(PeriodReport report) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("title", PeriodText.title(report));
    v.put("verdict", PeriodText.verdict(report));
    v.put("summary", summary(report));
    v.put("report", PeriodText.markdown(report));
    v.put("period", report.period().text());
    v.put("from", PeriodText.time(report.from()));
    v.put("until", PeriodText.time(report.until()));
    v.put("history", report.history());
    v.put("tests", Integer.toString(report.tests().size()));
    v.put(
        "worse",
        Long.toString(
            report.tests().stream().mapToLong(PeriodReport.TestReport::worseCount).sum()));
    return v;
  }

  private static String summary(PeriodReport report) {
    StringBuilder out = new StringBuilder();
    for (PeriodReport.TestReport t : report.tests()) {
      out.append("- ")
          .append(t.test())
          .append(": ")
          .append(t.current().runIds().size())
          .append(" runs this period, ")
          .append(t.previous().runIds().size())
          .append(" the previous one: ")
          .append(t.worseCount() == 0 ? "nothing worse" : t.worseCount() + " worse")
          .append("\n");
      PeriodText.test(t)
          .lines()
          .filter(l -> l.contains(": WORSE — "))
          .forEach(l -> out.append("  ").append(l).append("\n"));
    }
    return out.toString().stripTrailing();
  }
}
