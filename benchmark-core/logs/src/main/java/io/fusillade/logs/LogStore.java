package io.fusillade.logs;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kind of log store a client talks to. All take Elasticsearch's {@code _bulk}; they differ in
 * where it is posted and in how they are searched:
 *
 * <ul>
 *   <li>{@link #OPENSEARCH}, {@link #ELASTICSEARCH}: {@code POST /<index>/_bulk}, {@code POST
 *       /<index>/_search} with the query DSL, an index API ({@code PUT /<index>}) and {@code
 *       _refresh};
 *   <li>{@link #SEQ_DB}: {@code POST /_bulk} (the action lines' index is ignored: seq-db has one
 *       store, indexed as its mapping file says), seq-ql through {@code /search}, {@code
 *       /aggregate}, {@code /histogram} and {@code /complex-search} ({@link SeqDbQuery}); no index
 *       API, no refresh.
 * </ul>
 */
public enum LogStore {
  OPENSEARCH("opensearch"),
  ELASTICSEARCH("elasticsearch"),
  SEQ_DB("seq-db");

  private final String label;

  LogStore(String label) {
    this.label = label;
  }

  /** The name used in YAML and on the command line ({@code opensearch}, {@code seq-db}). */
  public String label() {
    return label;
  }

  /** Whether it speaks Elasticsearch's search and index API (OpenSearch, Elasticsearch). */
  public boolean elasticsearchApi() {
    return this != SEQ_DB;
  }

  /** The labels, in the order messages list them. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(LogStore::label).toList();
  }

  /** The store of a label, any case; {@code seqdb} and {@code seq_db} stand for {@code seq-db}. */
  public static Optional<LogStore> parse(String label) {
    String key = label == null ? "" : label.strip().toLowerCase(Locale.ROOT).replace('_', '-');
    if (key.equals("seqdb")) {
      key = "seq-db";
    }
    String wanted = key;
    return Arrays.stream(values()).filter(s -> s.label.equals(wanted)).findFirst();
  }
}
