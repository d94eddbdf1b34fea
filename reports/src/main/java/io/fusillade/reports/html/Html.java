package io.fusillade.reports.html;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Escaping and the shared style of Fusillade's HTML pages. A page is its HTML file and {@link
 * #STYLESHEET_FILE} beside it: no script, no network resource, nothing inline that a
 * Content-Security-Policy would drop.
 */
public final class Html {
  private Html() {}

  /**
   * Escapes text for HTML and XML content and attribute values.
   *
   * @param text any text
   * @return the escaped text
   */
  public static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            out.append(' '); // not allowed in XML 1.0
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /**
   * The stylesheet's file name. Every page links it ({@code <link rel="stylesheet">}) instead of
   * holding an inline {@code <style>}: Jenkins serves published reports under a
   * Content-Security-Policy ({@code style-src 'self'}) that drops inline styles and {@code style=}
   * attributes but allows a stylesheet from the same directory.
   */
  public static final String STYLESHEET_FILE = "report.css";

  /** The shared stylesheet of the report and trend pages. */
  public static final String STYLESHEET =
      """
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px;
             color: #1b1f24; max-width: 1200px; }
      h1 { font-size: 22px; }
      h2 { font-size: 18px; margin-top: 28px; border-bottom: 1px solid #ddd; }
      table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
      th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: right; }
      th:first-child, td:first-child { text-align: left; }
      th { background: #f3f4f6; }
      td.text, table.text th, table.text td { text-align: left; }
      .banner { padding: 10px 14px; margin: 12px 0; border-radius: 4px; font-weight: 600; }
      .incomplete { background: #fde2e1; color: #8a1c12; border: 1px solid #e5534b; }
      .flag { background: #fff4d6; color: #6b4b00; border: 1px solid #e3b341; }
      .pass { color: #1a7f37; font-weight: 600; }
      .fail { color: #cf222e; font-weight: 600; }
      .note { color: #57606a; font-size: 13px; max-width: 900px; }
      .footer { color: #777; font-size: 12px; }
      .charts { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
      figure.chart { margin: 0; }
      figure.chart details { font-size: 12px; color: #57606a; }
      svg.chart { background: #fff; border: 1px solid #e5e7eb; display: block; }
      code { background: #f3f4f6; padding: 1px 4px; }
      """;

  /**
   * Writes {@link #STYLESHEET} as {@link #STYLESHEET_FILE} into a page's directory.
   *
   * @param directory where the page is
   * @throws IOException when it cannot be written
   */
  public static void writeStylesheet(Path directory) throws IOException {
    io.fusillade.record.AtomicFile.write(directory.resolve(STYLESHEET_FILE), STYLESHEET);
  }

  /** The page head, linking the stylesheet (no inline style: see {@link #STYLESHEET_FILE}). */
  static String head(String title) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + escape(title)
        + "</title><link rel=\"stylesheet\" href=\""
        + STYLESHEET_FILE
        + "\"></head><body>\n";
  }
}
