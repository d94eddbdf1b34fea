package io.fusillade.workload;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?": the closest known word to a misspelt one, by Levenshtein distance. */
public final class Suggestions {

  private Suggestions() {}

  /**
   * @param word what the user wrote
   * @param candidates the words that would be valid
   * @return the closest candidate, if it is close enough to be a likely typo
   */
  public static Optional<String> closest(String word, Collection<String> candidates) {
    String w = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      int d = distance(w, candidate.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = candidate;
        bestDistance = d;
      }
    }
    // Allow about one edit per three characters: "tables_shema" yes, "foo" for "name" no.
    int allowed = Math.max(2, w.length() / 3);
    if (best != null && bestDistance <= allowed) {
      return Optional.of(best);
    }
    // A longer or shorter spelling of a known word: "Zipfian" for "zipf", "dat" for "date".
    for (String candidate : candidates) {
      String c = candidate.toLowerCase(Locale.ROOT);
      if (Math.min(c.length(), w.length()) >= 3 && (w.startsWith(c) || c.startsWith(w))) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }

  /**
   * @param a a word
   * @param b another word
   * @return the number of single-character insertions, deletions and substitutions from a to b
   */
  public static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
