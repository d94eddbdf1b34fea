package io.fusillade.gatling.logs;

import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;

/**
 * The documents sent: a built-in profile or one's own source, the seed and where to start. Part of
 * {@link LogsSettings}. Which bulks of the data set are this injector's is the run's concern
 * ({@link io.fusillade.gatling.InjectorShare}).
 *
 * @param source one's own documents, or null for the profile's
 */
record LogsData(LogProfile profile, LogSource source, long seed, long firstDocument) {

  static final LogsData DEFAULT = new LogsData(LogProfile.WEB, null, 1, 0);

  /** A built-in profile, replacing one's own source. */
  LogsData withProfile(LogProfile value) {
    return new LogsData(value, null, seed, firstDocument);
  }

  LogsData withSource(LogSource value) {
    return new LogsData(profile, value, seed, firstDocument);
  }

  LogsData withSeed(long value) {
    return new LogsData(profile, source, value, firstDocument);
  }

  LogsData withFirstDocument(long value) {
    return new LogsData(profile, source, seed, value);
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
