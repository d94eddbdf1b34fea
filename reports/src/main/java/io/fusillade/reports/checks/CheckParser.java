package io.fusillade.reports.checks;

import io.fusillade.FusilladeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads checks written as short sentences:
 *
 * <pre>
 * p99 &lt; 50ms                        latency of all requests: p50..p99.9 (or p999), mean, max;
 * p95 &lt;= 200ms for "account by id"   ... of one request name; units us, ms, s
 * p99 &lt; 50ms for "e2e events"        ... of a metric, when no request has that name
 * errors &lt; 1%                       server + network KO / completed requests, optionally "for NAME"
 * rate &gt;= 150/s                     steady-state completed requests per second
 * rate &gt;= 99% of target             ... as a share of run.json's rate (or older targetRate)
 * rate &gt;= 95% of users              ... or of any other numeric parameter
 * lag not growing                   no consumer-lag gauge (lag.*) has a growing trend
 * injector not saturated            the injector lag monitor's verdict, and no injector-class KO
 * no messages lost                  every acknowledged message received (all topics, or "for T")
 * delivery exact                    ... and none duplicated or out of order
 * server cpu.steal &lt; 5%            mean of a server's gauge (server.NAME.GAUGE), every server
 * server max filesystem.use &lt; 90% for db   ... its maximum, of one server; sizes in B, kB, MB,
 *                                   GB, KiB, MiB, GiB, rates with /s (disk.write &lt; 100MB/s)
 * system cpu.steal &lt; 5%            ... of the injector's own machine (system.GAUGE)
 * server log warning &lt; 10           lines of a server's log matching the pattern named warning
 *                                   over the run (a logs: monitor source), optionally "for NAME"
 * recovery &lt; 10s after "kill broker 1"   good requests back in their pre-fault range after a
 *                                   scheduled fault (see FaultWindows)
 * </pre>
 *
 * Comparisons are {@code <}, {@code <=}, {@code >}, {@code >=}. Words are case-insensitive; request
 * names are exact. A mistake gives a {@link FusilladeException} naming the check and the position
 * (1-based) where reading stopped.
 */
public final class CheckParser {
  private final String text;
  private final List<Token> tokens;
  private int next;

  private CheckParser(String text) {
    this.text = text;
    this.tokens = tokenize(text);
  }

  /**
   * Parses one check.
   *
   * @param text the check
   * @return the check
   * @throws FusilladeException naming the check and the position of the mistake
   */
  public static Check parse(String text) {
    return new CheckParser(text.strip()).check();
  }

  /**
   * Parses several checks, failing on the first bad one.
   *
   * @param texts the checks
   * @return the checks, in order
   */
  public static List<Check> parseAll(List<String> texts) {
    List<Check> checks = new ArrayList<>();
    for (String t : texts) {
      checks.add(parse(t));
    }
    return checks;
  }

  private enum Kind {
    WORD,
    NUMBER,
    OPERATOR,
    STRING,
    PERCENT,
    SLASH
  }

  private record Token(Kind kind, String value, int position) {}

  private List<Token> tokenize(String s) {
    List<Token> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      char c = s.charAt(i);
      int start = i;
      if (Character.isWhitespace(c)) {
        i++;
      } else if (Character.isDigit(c)) {
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
          i++;
        }
        out.add(new Token(Kind.NUMBER, s.substring(start, i), start + 1));
      } else if (Character.isLetter(c) || c == 'µ' || c == '_') {
        while (i < s.length()
            && (Character.isLetterOrDigit(s.charAt(i))
                || s.charAt(i) == '.'
                || s.charAt(i) == '_'
                || s.charAt(i) == '-'
                || s.charAt(i) == 'µ')) {
          i++;
        }
        out.add(new Token(Kind.WORD, s.substring(start, i), start + 1));
      } else if (c == '<' || c == '>' || c == '=' || c == '!') {
        i++;
        if (i < s.length() && s.charAt(i) == '=') {
          i++;
        }
        out.add(new Token(Kind.OPERATOR, s.substring(start, i), start + 1));
      } else if (c == '"' || c == '\'') {
        int end = s.indexOf(c, i + 1);
        if (end < 0) {
          throw error("the quoted name is not closed", start + 1);
        }
        out.add(new Token(Kind.STRING, s.substring(i + 1, end), start + 1));
        i = end + 1;
      } else if (c == '%') {
        i++;
        out.add(new Token(Kind.PERCENT, "%", start + 1));
      } else if (c == '/') {
        i++;
        out.add(new Token(Kind.SLASH, "/", start + 1));
      } else {
        throw error("unexpected character '" + c + "'", start + 1);
      }
    }
    return out;
  }

  private Check check() {
    if (tokens.isEmpty()) {
      throw error("the check is empty", 1);
    }
    Token first =
        expect(
            Kind.WORD,
            "a measure (p99, mean, max, errors, rate, lag, injector, no messages lost, delivery,"
                + " server, system, recovery)");
    String word = first.value().toLowerCase(Locale.ROOT);
    Check check;
    switch (word) {
      case "lag" -> {
        word("not");
        word("growing");
        check = new LagNotGrowingCheck(text);
      }
      case "injector" -> {
        word("not");
        word("saturated");
        check = new InjectorCheck(text);
      }
      case "no" -> {
        word("messages");
        word("lost");
        check = new DeliveryCheck(text, false, forName());
      }
      case "delivery" -> {
        word("exact");
        check = new DeliveryCheck(text, true, forName());
      }
      case "server", "system" -> check = machineCheck(word);
      case "recovery" -> {
        Comparator comparator = comparator();
        double limit = number();
        Token unit = expect(Kind.WORD, "a unit (ms, s) after the number");
        double factor =
            switch (unit.value()) {
              case "ms" -> 1;
              case "s" -> 1000;
              default -> throw error("expected a unit (ms, s)", unit.position());
            };
        word("after");
        Token fault = expect(Kind.STRING, "the fault in quotes, e.g. \"kill broker 1\"");
        check = new RecoveryCheck(text, comparator, limit * factor, fault.value());
      }
      case "errors" -> {
        Comparator comparator = comparator();
        double limit = number();
        expect(Kind.PERCENT, "'%' after the number (errors are a percentage)");
        check = new ErrorsCheck(text, comparator, limit, forRequest());
      }
      case "rate" -> {
        Comparator comparator = comparator();
        double limit = number();
        String parameter = null;
        if (peek(Kind.PERCENT)) {
          next++;
          word("of");
          parameter = expect(Kind.WORD, "a parameter name such as 'target'").value();
        } else if (peek(Kind.SLASH)) {
          next++;
          Token s = expect(Kind.WORD, "'s' (per second)");
          if (!s.value().equals("s")) {
            throw error("expected 's' (per second)", s.position());
          }
        }
        check = new RateCheck(text, comparator, limit, parameter, forRequest());
      }
      default -> {
        double percentile = percentile(first);
        Comparator comparator = comparator();
        double limit = number();
        Token unit = expect(Kind.WORD, "a unit (us, ms, s) after the number");
        double factor =
            switch (unit.value()) {
              case "us", "µs" -> 0.001;
              case "ms" -> 1;
              case "s" -> 1000;
              default -> throw error("expected a unit (us, ms, s)", unit.position());
            };
        check =
            new LatencyCheck(
                text, first.value(), percentile, comparator, limit * factor, forRequest());
      }
    }
    if (next < tokens.size()) {
      Token extra = tokens.get(next);
      throw error("unexpected \"" + extra.value() + "\"", extra.position());
    }
    return check;
  }

  /** {@code server [max] GAUGE OP NUMBER [UNIT][/s] [for NAME]}, or {@code system ...}. */
  private Check machineCheck(String machine) {
    boolean max = false;
    Token gauge = expect(Kind.WORD, "a gauge such as cpu.steal");
    if (machine.equals("server") && gauge.value().equalsIgnoreCase("log") && peek(Kind.WORD)) {
      Token pattern = tokens.get(next++);
      Comparator comparator = comparator();
      double limit = number();
      return new LogCheck(text, pattern.value(), comparator, limit, forName("a server name"));
    }
    if (gauge.value().equalsIgnoreCase("max") || gauge.value().equalsIgnoreCase("mean")) {
      max = gauge.value().equalsIgnoreCase("max");
      gauge = expect(Kind.WORD, "a gauge such as cpu.steal");
    }
    Comparator comparator = comparator();
    double limit = number();
    String unit = "";
    if (peek(Kind.PERCENT)) {
      next++;
      unit = "%";
    } else if (peek(Kind.WORD) && !tokens.get(next).value().equalsIgnoreCase("for")) {
      Token u = tokens.get(next++);
      if (Double.isNaN(ServerCheck.factor(u.value()))) {
        throw error(
            "unknown unit \"" + u.value() + "\": expected %, B, kB, MB, GB, TB, KiB, MiB or GiB",
            u.position());
      }
      unit = u.value();
    }
    if (peek(Kind.SLASH)) {
      next++;
      Token s = expect(Kind.WORD, "'s' (per second)");
      if (!s.value().equals("s")) {
        throw error("expected 's' (per second)", s.position());
      }
      unit = unit + "/s";
    }
    String server = machine.equals("server") ? forName("a server name") : null;
    return new ServerCheck(
        text,
        machine,
        max,
        gauge.value(),
        comparator,
        limit * ServerCheck.factor(unit),
        unit,
        server);
  }

  private double percentile(Token token) {
    String w = token.value().toLowerCase(Locale.ROOT);
    if (w.equals("mean")) {
      return -1;
    }
    if (w.equals("max")) {
      return 100;
    }
    if (w.matches("p\\d+(\\.\\d+)?")) {
      String digits = w.substring(1);
      double p =
          digits.matches("9{3,}")
              ? 100 - Math.pow(10, 2 - digits.length())
              : Double.parseDouble(digits);
      if (p > 0 && p <= 100) {
        return p;
      }
    }
    throw error(
        "unknown measure \""
            + token.value()
            + "\": expected p50 ... p99.9, mean, max, errors, rate, lag not growing, injector"
            + " not saturated, no messages lost, delivery exact, server GAUGE or system GAUGE",
        token.position());
  }

  private String forRequest() {
    return forName("a request name");
  }

  /** {@code for <topic>} after a delivery check, or null. */
  private String forName() {
    return forName("a topic name");
  }

  private String forName(String what) {
    if (next >= tokens.size()) {
      return null;
    }
    word("for");
    Token name = tokens.size() > next ? tokens.get(next) : null;
    if (name == null || (name.kind() != Kind.STRING && name.kind() != Kind.WORD)) {
      throw error("expected " + what + " after 'for'", position());
    }
    next++;
    return name.value();
  }

  private Comparator comparator() {
    Token op = expect(Kind.OPERATOR, "a comparison (<, <=, >, >=)");
    Comparator comparator = Comparator.of(op.value());
    if (comparator == null) {
      throw error(
          "expected a comparison (<, <=, >, >=), not \"" + op.value() + "\"", op.position());
    }
    return comparator;
  }

  private double number() {
    Token n = expect(Kind.NUMBER, "a number");
    try {
      return Double.parseDouble(n.value());
    } catch (NumberFormatException e) {
      throw error("\"" + n.value() + "\" is not a number", n.position());
    }
  }

  private void word(String expected) {
    Token t = expect(Kind.WORD, "'" + expected + "'");
    if (!t.value().equalsIgnoreCase(expected)) {
      throw error("expected '" + expected + "', not \"" + t.value() + "\"", t.position());
    }
  }

  private boolean peek(Kind kind) {
    return next < tokens.size() && tokens.get(next).kind() == kind;
  }

  private Token expect(Kind kind, String what) {
    if (!peek(kind)) {
      throw error(
          "expected "
              + what
              + (next < tokens.size() ? ", not \"" + tokens.get(next).value() + "\"" : ""),
          position());
    }
    return tokens.get(next++);
  }

  private int position() {
    return next < tokens.size() ? tokens.get(next).position() : text.length() + 1;
  }

  private FusilladeException error(String message, int position) {
    String where = position > text.length() ? "at the end" : "at position " + position;
    return new FusilladeException("check \"" + text + "\": " + message + " " + where);
  }
}
