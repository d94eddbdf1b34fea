package io.fusillade.local;

/**
 * An Elasticsearch-compatible search server for tests and quick runs (the {@code _bulk} and {@code
 * _search} API), whoever started it: the embedded OpenSearch ({@code LocalOpenSearch}, the default)
 * or a container of OpenSearch or Elasticsearch ({@code ContainerSearch} in {@code
 * fusillade-containers}).
 */
public interface SearchServer extends AutoCloseable {

  /** The HTTP base URL, e.g. {@code http://127.0.0.1:9200}, without credentials. */
  String baseUrl();

  /** The base URL of every node of a cluster, the first being {@link #baseUrl()}. */
  default java.util.List<String> baseUrls() {
    return java.util.List.of(baseUrl());
  }

  /** Stops the server and removes what it wrote. */
  @Override
  void close();
}
