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

  /** Stops the server and removes what it wrote. */
  @Override
  void close();
}
