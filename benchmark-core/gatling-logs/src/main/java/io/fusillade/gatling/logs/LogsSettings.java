package io.fusillade.gatling.logs;

import io.fusillade.logs.LogSource;
import io.fusillade.logs.LogsClientOptions;
import io.fusillade.logs.SearchabilityProbe;
import java.util.function.UnaryOperator;

/**
 * Everything the logs protocol was configured with: the value a {@link LogsProtocolBuilder} wraps.
 * Each {@code with...} returns a changed copy. A value: equal settings share components. {@link
 * #toString()} never shows a secret.
 *
 * @param probe the time-to-searchable probe's settings, or null for no probe
 */
record LogsSettings(
    LogsTarget target,
    LogsData data,
    LogsIndex index,
    boolean gzip,
    SearchabilityProbe.Settings probe) {

  /** Index {@code logs}, web profile, seed 1, no gzip, no index creation, no probe. */
  static final LogsSettings DEFAULT =
      new LogsSettings(LogsTarget.DEFAULT, LogsData.DEFAULT, LogsIndex.DEFAULT, false, null);

  LogsSettings withTarget(UnaryOperator<LogsTarget> change) {
    return new LogsSettings(change.apply(target), data, index, gzip, probe);
  }

  LogsSettings withData(UnaryOperator<LogsData> change) {
    return new LogsSettings(target, change.apply(data), index, gzip, probe);
  }

  LogsSettings withIndex(LogsIndex value) {
    return new LogsSettings(target, data, value, gzip, probe);
  }

  LogsSettings withGzip(boolean value) {
    return new LogsSettings(target, data, index, value, probe);
  }

  LogsSettings withProbe(SearchabilityProbe.Settings value) {
    return new LogsSettings(target, data, index, gzip, value);
  }

  LogsClientOptions clientOptions() {
    return target.clientOptions();
  }

  LogSource logSource() {
    return data.logSource();
  }

  long firstDocument() {
    return data.firstDocument();
  }

  /** The name of the index bulks and searches go to. */
  String indexName() {
    return index.name();
  }

  /** The protocol Gatling holds; checks the URLs and credentials now, with a clear message. */
  LogsProtocol protocol() {
    if (target.urls().isEmpty()) {
      throw new IllegalStateException(
          "The logs protocol needs at least one URL: logs.urls(\"http://host:9200\")");
    }
    clientOptions();
    return new LogsProtocol(this);
  }

  @Override
  public String toString() {
    return "LogsSettings["
        + target
        + ", index="
        + index.name()
        + ", profile="
        + data.label()
        + ", seed="
        + data.seed()
        + ", gzip="
        + gzip
        + "]";
  }
}
