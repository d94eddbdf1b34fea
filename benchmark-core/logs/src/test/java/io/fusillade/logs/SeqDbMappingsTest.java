package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** seq-db's mapping file, written from the same description as Elasticsearch's mapping. */
class SeqDbMappingsTest {

  @Test
  void theSeedsProductionMappingKeepsTextAndMakesEverythingElseAKeyword() {
    String yaml = SeqDbMappings.yaml(IndexSpec.preset("k8s", "k8s-logs-index"));
    assertThat(yaml)
        .startsWith("mapping-list:\n")
        .contains("  - name: \"k8s_cluster\"\n    type: keyword\n")
        .contains("  - name: \"client_ip\"\n    type: keyword\n")
        .contains("  - name: \"http_code\"\n    type: keyword\n")
        .contains("  - name: \"message\"\n    type: text\n")
        // the time-to-searchable probe's markers are found by this field
        .contains("  - name: \"fusillade_marker\"\n    type: keyword\n");
  }

  @Test
  void webFieldsAndObjectsAndNoMappingAtAll() {
    assertThat(SeqDbMappings.yaml(IndexSpec.preset("w", "web-logs")))
        .contains("  - name: \"@timestamp\"\n    type: keyword\n")
        .contains("  - name: \"request\"\n    type: text\n");
    String nested =
        SeqDbMappings.yaml(
            IndexSpec.preset("n", "none")
                .withMappings(
                    "{\"properties\":{\"user\":{\"properties\":{\"name\":{\"type\":\"text\"}}}}}"));
    assertThat(nested)
        .contains(
            "  - name: \"user\"\n    type: object\n    mapping-list:\n"
                + "      - name: \"name\"\n        type: text\n");
    assertThat(SeqDbMappings.yaml(IndexSpec.preset("n", "none"))).isNull();
  }
}
