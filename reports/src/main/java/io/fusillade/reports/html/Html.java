package io.fusillade.reports.html;

/** Escaping and the shared style of Fusillade's HTML pages (no external resources at all). */
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

  /** The page head with inline style. */
  static String head(String title) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        + "<title>"
        + escape(title)
        + "</title><style>"
        + "body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;"
        + "color:#1b1f24;max-width:1200px}"
        + "h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #ddd}"
        + "table{border-collapse:collapse;margin:8px 0;font-size:13px}"
        + "th,td{border:1px solid #ddd;padding:3px 8px;text-align:right}"
        + "th:first-child,td:first-child{text-align:left}th{background:#f3f4f6}"
        + ".banner{padding:10px 14px;margin:12px 0;border-radius:4px;font-weight:600}"
        + ".incomplete{background:#fde2e1;color:#8a1c12;border:1px solid #e5534b}"
        + ".flag{background:#fff4d6;color:#6b4b00;border:1px solid #e3b341}"
        + ".pass{color:#1a7f37;font-weight:600}.fail{color:#cf222e;font-weight:600}"
        + ".charts{display:flex;flex-wrap:wrap;gap:12px}"
        + "svg.chart{background:#fff;border:1px solid #e5e7eb}"
        + "code{background:#f3f4f6;padding:1px 4px}"
        + "</style></head><body>\n";
  }
}
