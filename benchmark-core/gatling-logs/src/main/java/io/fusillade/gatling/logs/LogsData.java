package io.fusillade.gatling.logs;

import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;

/**
 * The documents sent: a built-in profile or one's own source, the seed, where to start, and which
 * bulks are this injector's. Part of {@link LogsSettings}.
 *
 * @param source one's own documents, or null for the profile's
 * @param injectors the injectors that share the data set (1 for one)
 * @param injectorIndex this one's index among them: it sends the bulks {@code injectorIndex},
 *     {@code injectorIndex + injectors}, ... of the single run's sequence
 */
record LogsData(
    LogProfile profile,
    LogSource source,
    long seed,
    long firstDocument,
    int injectors,
    int injectorIndex) {

  static final LogsData DEFAULT = new LogsData(LogProfile.WEB, null, 1, 0, 1, 0);

  LogsData {
    if (injectors < 1 || injectorIndex < 0 || injectorIndex >= injectors) {
      throw new IllegalArgumentException(
          "injector " + injectorIndex + " of " + injectors + ": the index is from 0 to N - 1");
    }
  }

  /** A built-in profile, replacing one's own source. */
  LogsData withProfile(LogProfile value) {
    return new LogsData(value, null, seed, firstDocument, injectors, injectorIndex);
  }

  LogsData withSource(LogSource value) {
    return new LogsData(profile, value, seed, firstDocument, injectors, injectorIndex);
  }

  LogsData withSeed(long value) {
    return new LogsData(profile, source, value, firstDocument, injectors, injectorIndex);
  }

  LogsData withFirstDocument(long value) {
    return new LogsData(profile, source, seed, value, injectors, injectorIndex);
  }

  LogsData withShare(int count, int index) {
    return new LogsData(profile, source, seed, firstDocument, count, index);
  }

  /** The generator: the custom source, or the profile's for the seed. */
  LogSource logSource() {
    return source != null ? source : profile.source(seed);
  }

  /** The data's name in messages: the source's or the profile's. */
  String label() {
    return source != null ? source.name() : profile.label();
  }
}
