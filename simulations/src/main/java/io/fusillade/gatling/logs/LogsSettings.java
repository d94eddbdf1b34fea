package io.fusillade.gatling.logs;

import io.fusillade.logs.IndexSpec;
import io.fusillade.logs.LogProfile;
import io.fusillade.logs.LogSource;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchabilityProbe;
import java.time.Duration;
import java.util.List;

/**
 * Everything the logs protocol was configured with. A value: equal settings share components.
 * {@link #toString()} never shows a secret.
 */
record LogsSettings(
    List<String> urls,
    String user,
    String password,
    String apiKey,
    String index,
    LogProfile profile,
    LogSource source,
    long seed,
    boolean gzip,
    IndexSpec createIndex,
    boolean recreateIndex,
    SearchabilityProbe.Settings probe,
    Duration requestTimeout,
    long firstDocument,
    List<Double> stepRates,
    Duration stepDuration) {

  static final LogsSettings DEFAULT =
      new LogsSettings(
          List.of(),
          null,
          null,
          null,
          "logs",
          LogProfile.WEB,
          null,
          1,
          false,
          null,
          false,
          null,
          Duration.ofSeconds(60),
          0,
          List.of(),
          null);

  LogsClientOptions clientOptions() {
    return new LogsClientOptions(urls, user, password, apiKey, requestTimeout);
  }

  /** The generator: the custom source, or the profile's for the seed. */
  LogSource logSource() {
    return source != null ? source : profile.source(seed);
  }

  @Override
  public String toString() {
    return "LogsSettings["
        + clientOptions()
        + ", index="
        + index
        + ", profile="
        + (source != null ? source.name() : profile.label())
        + ", seed="
        + seed
        + ", gzip="
        + gzip
        + "]";
  }
}
