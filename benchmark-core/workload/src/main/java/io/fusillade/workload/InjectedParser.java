package io.fusillade.workload;

import io.fusillade.workload.YamlNode.MapNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads the {@code injected} list: erroneous requests mixed into the queries ({@link
 * InjectedFault}).
 *
 * <pre>{@code
 * injected:
 *   - {kind: syntax error, share: 1%}
 *   - {kind: constraint violation, share: 0.5%}
 *   - {kind: statement timeout, share: 0.2%, from: 20s, for: 10s}
 * }</pre>
 */
final class InjectedParser extends FieldReader {
  private static final Set<String> KEYS = keys("kind", "share", "rate", "from", "for");

  InjectedParser(FieldReader shared) {
    super(shared);
  }

  /**
   * @param top the file's top mapping
   * @param kinds the kinds its sections take ({@link InjectedFault#kindsFor})
   * @param sections what those sections are, for the message when there are none
   */
  List<InjectedFault> faults(MapNode top, List<String> kinds, String sections) {
    List<InjectedFault> faults = new ArrayList<>();
    eachMapping(
        top,
        "",
        "injected",
        (m, path, i) -> {
          int before = problems.size();
          checkKeys(m, path, KEYS);
          String kind = string(m, path, "kind", true);
          if (field(m, "share") == null && field(m, "rate") == null) {
            problem(m, path, "give share (a share of the arrivals) or rate (requests per second)");
          } else if (field(m, "share") != null && field(m, "rate") != null) {
            problem(field(m, "rate"), join(path, "rate"), "give share or rate, not both");
          }
          if (problems.size() > before || kind == null) {
            return;
          }
          String k = kind.strip().toLowerCase(Locale.ROOT).replace('_', ' ');
          if (!kinds.contains(k)) {
            List<String> all = InjectedFault.kindsFor(true, true, true);
            problem(
                field(m, "kind"),
                join(path, "kind"),
                (all.contains(k)
                        ? "kind \"" + kind + "\" does not go with " + sections
                        : "unknown kind \"" + kind + "\"")
                    + (kinds.isEmpty()
                        ? ": only queries, logs and topics take injected requests"
                        : ": one of " + String.join(", ", kinds) + didYouMean(k, kinds)));
            return;
          }
          Double share = share(m, path, "share", "1% or 0.01");
          Double rate = number(m, path, "rate");
          if (rate != null && !(rate > 0 && rate < Double.POSITIVE_INFINITY)) {
            problem(field(m, "rate"), join(path, "rate"), "rate must be above 0 per second");
          }
          LogIngestParser durations = new LogIngestParser(this);
          Duration from = durations.offset(m, path, "from");
          Duration length = durations.duration(m, path, "for");
          if (problems.size() > before) {
            return;
          }
          try {
            faults.add(
                rate != null
                    ? InjectedFault.atRate(k, rate, from, length)
                    : new InjectedFault(k, share, from, length));
          } catch (IllegalArgumentException e) {
            String key = rate != null ? "rate" : "share";
            problem(field(m, key), join(path, key), e.getMessage());
          }
        });
    double total = faults.stream().mapToDouble(InjectedFault::share).sum();
    if (total > 0.5) {
      problem(
          field(top, "injected"),
          "injected",
          "the injected shares add up to more than 50% of the arrivals");
    }
    return faults;
  }
}
