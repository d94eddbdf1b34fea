package io.fusillade.workload;

import io.fusillade.workload.YamlNode.MapNode;
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
 *   - {kind: statement timeout, share: 0.2%}
 * }</pre>
 */
final class InjectedParser extends FieldReader {
  private static final Set<String> KEYS = keys("kind", "share");

  InjectedParser(FieldReader shared) {
    super(shared);
  }

  List<InjectedFault> faults(MapNode top) {
    List<InjectedFault> faults = new ArrayList<>();
    eachMapping(
        top,
        "",
        "injected",
        (m, path, i) -> {
          int before = problems.size();
          checkKeys(m, path, KEYS);
          String kind = string(m, path, "kind", true);
          if (field(m, "share") == null) {
            missing(m, path, "share");
          }
          if (problems.size() > before || kind == null) {
            return;
          }
          String k = kind.strip().toLowerCase(Locale.ROOT).replace('_', ' ');
          if (!InjectedFault.SQL_KINDS.contains(k)) {
            problem(
                field(m, "kind"),
                join(path, "kind"),
                "unknown kind \""
                    + kind
                    + "\": one of "
                    + String.join(", ", InjectedFault.SQL_KINDS)
                    + didYouMean(k, InjectedFault.SQL_KINDS));
            return;
          }
          Double share = share(m, path, "share", "1% or 0.01");
          if (share == null) {
            return;
          }
          try {
            faults.add(new InjectedFault(k, share));
          } catch (IllegalArgumentException e) {
            problem(field(m, "share"), join(path, "share"), e.getMessage());
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
