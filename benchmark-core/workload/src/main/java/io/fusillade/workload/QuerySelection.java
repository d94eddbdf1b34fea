package io.fusillade.workload;

import io.fusillade.FusilladeException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Which of a workload's queries a run sends: {@code --queries lite}, {@code --queries full}, {@code
 * --queries Q1,Q6} (the run plan's {@code sql.queries} in the forked runner). Each comma-separated
 * item is a tag of the file's queries ({@code tags: [lite, full]}), a query's name, or the first
 * word of its name ({@code Q1} for {@code Q1 pricing summary}), any case; the queries any item
 * names run, in the file's order, with their own parameters (a query's values do not depend on
 * which others run). An item that names nothing is an error naming the tags and queries there are.
 *
 * @param items the items, as given; empty for every query
 */
public record QuerySelection(List<String> items) {

  /** Every query. */
  public static final QuerySelection ALL = new QuerySelection(List.of());

  /** Copies the list. */
  public QuerySelection {
    items = List.copyOf(items);
  }

  /**
   * @param text comma-separated tags and names; null or blank for every query
   * @return the selection
   */
  public static QuerySelection parse(String text) {
    if (text == null || text.isBlank()) {
      return ALL;
    }
    return new QuerySelection(
        Arrays.stream(text.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList());
  }

  /**
   * @return whether every query runs
   */
  public boolean all() {
    return items.isEmpty();
  }

  /**
   * The workload with only the selected queries.
   *
   * @param workload a valid workload
   * @return it, or a copy with fewer queries
   * @throws FusilladeException when an item names no tag or query of the file
   */
  public Workload apply(Workload workload) {
    if (all()) {
      return workload;
    }
    Set<Query> selected = new LinkedHashSet<>();
    for (String item : items) {
      List<Query> matched = workload.queries().stream().filter(q -> matches(item, q)).toList();
      if (matched.isEmpty()) {
        throw new FusilladeException(unknown(item, workload));
      }
      selected.addAll(matched);
    }
    List<Query> inFileOrder = workload.queries().stream().filter(selected::contains).toList();
    return workload.withQueries(inFileOrder);
  }

  /**
   * @return the selection as {@code --queries} takes it
   */
  @Override
  public String toString() {
    return String.join(",", items);
  }

  private static boolean matches(String item, Query query) {
    String name = query.name();
    int space = name.indexOf(' ');
    return query.tags().stream().anyMatch(t -> t.equalsIgnoreCase(item))
        || name.equalsIgnoreCase(item)
        || (space > 0 && name.substring(0, space).equalsIgnoreCase(item));
  }

  private static String unknown(String item, Workload workload) {
    Set<String> tags = new LinkedHashSet<>();
    List<String> names = new ArrayList<>();
    for (Query q : workload.queries()) {
      tags.addAll(q.tags());
      int space = q.name().indexOf(' ');
      names.add(space > 0 ? q.name().substring(0, space) : q.name());
    }
    List<String> candidates = new ArrayList<>(tags);
    candidates.addAll(names);
    return "--queries: no tag or query '"
        + item
        + "' in "
        + workload.file()
        + Suggestions.closest(item.toLowerCase(Locale.ROOT), candidates)
            .map(c -> "; did you mean '" + c + "'?")
            .orElse("")
        + " ("
        + (tags.isEmpty() ? "no tags" : "tags: " + String.join(", ", tags))
        + "; queries: "
        + String.join(", ", names)
        + ")";
  }
}
