package io.fusillade.gatling.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fusillade.logs.IndexSpec;
import io.fusillade.workload.InjectedFault;
import org.junit.jupiter.api.Test;

/** The bulks that fail on purpose: what each sends, for the index's mapping. */
class LogsFaultsTest {
  @Test
  void everyKindAWorkloadMayNameHasItsBody() {
    assertThat(InjectedFault.LOGS_KINDS).containsExactlyElementsOf(LogsFaults.KINDS);
  }

  @Test
  void aMappingViolationPutsTextIntoTheFirstTypedField() {
    assertThat(LogsFaults.body(LogsFaults.MAPPING_VIOLATION, IndexSpec.WEB_LOGS_MAPPING))
        .isEqualTo("{\"index\":{}}\n{\"@timestamp\":\"not a date\"}\n");
    // the k8s index's first fields are keywords, which take any text: the number is next
    assertThat(LogsFaults.body(LogsFaults.MAPPING_VIOLATION, IndexSpec.K8S_LOGS_MAPPING))
        .isEqualTo("{\"index\":{}}\n{\"http_code\":\"not a number\"}\n");
  }

  @Test
  void aMappingViolationNeedsATypedFieldAndAKindMustBeKnown() {
    assertThatThrownBy(() -> LogsFaults.body(LogsFaults.MAPPING_VIOLATION, null))
        .hasMessageContaining("needs an index created with a mapping");
    assertThatThrownBy(() -> LogsFaults.body(LogsFaults.MAPPING_VIOLATION, "{\"properties\":{}}"))
        .hasMessageContaining("number, date or ip field");
    assertThatThrownBy(() -> LogsDsl.injected("mapping violaton"))
        .hasMessageContaining("no injected kind \"mapping violaton\": one of mapping violation,");
  }

  @Test
  void aMalformedBulkHasAnActionLineWithoutAnAction() {
    String body = LogsFaults.body(LogsFaults.MALFORMED_BULK, null);
    assertThat(body.lines().findFirst().orElseThrow()).isEqualTo("{\"indx\":{}}");
  }
}
