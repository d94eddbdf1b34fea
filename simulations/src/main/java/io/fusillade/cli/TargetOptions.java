package io.fusillade.cli;

import io.fusillade.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The system under test: {@code --url} (every command that reaches one: its nodes' JDBC URLs, a
 * Kafka bootstrap server, a log store's base URL) and {@code --user}; the SQL password comes from
 * the environment variable {@value DatabaseOptions#PASSWORD_VARIABLE}, never from an option.
 * Without {@code --url}, the workload's own servers, else embedded ones.
 */
final class TargetOptions extends OptionGroup {
  @Option(
      names = "--url",
      paramLabel = "URL",
      description = {
        "The system under test (repeatable): SQL, a node's JDBC URL (repeat for a cluster);",
        "topics, a Kafka bootstrap server; logs, a node's http(s) base URL. Default: the",
        "workload's, else an embedded server."
      })
  List<String> urls = new ArrayList<>();

  @Option(names = "--user", description = "The database user (default: the workload's).")
  String user;

  /** Whether {@code --url} names the system under test. */
  boolean urlGiven() {
    return !urls.isEmpty();
  }

  /** The SQL nodes: {@code --url}'s, else the workload's connection's; empty for embedded. */
  List<String> sqlUrls(Workload workload) {
    return urlGiven() ? urls : workload.connection().map(c -> c.urls()).orElse(List.of());
  }

  String user(Workload workload) {
    return user != null ? user : workload.connection().map(c -> c.user()).orElse(null);
  }

  String password(Workload workload) {
    String fromEnvironment = System.getenv(DatabaseOptions.PASSWORD_VARIABLE);
    return fromEnvironment != null
        ? fromEnvironment
        : workload.connection().map(c -> c.password()).orElse(null);
  }
}
