package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a seq-db read sends, and where. */
class SeqDbQueryTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void aPageOfDocumentsGoesToSearchWithItsOffsetNewestFirst() throws Exception {
    SeqDbQuery page = SeqDbQuery.of("status:in(500, 400, 403)").withSize(100).withOffset(4_900);

    assertThat(page.endpoint()).isEqualTo("/search");
    JsonNode body = MAPPER.readTree(page.body());
    assertThat(body.path("query").path("query").asText()).isEqualTo("status:in(500, 400, 403)");
    assertThat(body.path("query").path("from").asText()).isEqualTo(SeqDbQuery.DEFAULT_FROM);
    assertThat(body.path("size").asInt()).isEqualTo(100);
    assertThat(body.path("offset").asLong()).isEqualTo(4_900);
    assertThat(body.path("with_total").asBoolean()).isFalse();
    assertThat(body.path("order").asText()).isEqualTo("ORDER_DESC");
  }

  @Test
  void aggregationsAloneGoToAggregateAndWithDocumentsToComplexSearch() throws Exception {
    SeqDbQuery minSize =
        SeqDbQuery.of("*")
            .withSize(0)
            .withAggregations(List.of(SeqDbAggregation.min("size").groupBy("status")));
    assertThat(minSize.endpoint()).isEqualTo("/aggregate");
    JsonNode agg = MAPPER.readTree(minSize.body()).path("aggs").get(0);
    assertThat(agg.path("func").asText()).isEqualTo("AGG_FUNC_MIN");
    assertThat(agg.path("field").asText()).isEqualTo("size");
    assertThat(agg.path("group_by").asText()).isEqualTo("status");
    assertThat(MAPPER.readTree(minSize.body()).has("size")).isFalse();

    assertThat(minSize.withSize(10).endpoint()).isEqualTo("/complex-search");
    assertThat(SeqDbQuery.of("*").withSize(0).withHistogram("1m").endpoint())
        .isEqualTo("/histogram");
    assertThat(
            MAPPER
                .readTree(
                    SeqDbQuery.of("*")
                        .withAggregations(List.of(SeqDbAggregation.quantile("size", 0.5, 0.99)))
                        .body())
                .path("aggs")
                .get(0)
                .path("quantiles")
                .toString())
        .isEqualTo("[0.5,0.99]");
  }

  @Test
  void aTotalAloneAsksForOneDocumentSinceSearchRefusesNone() throws Exception {
    SeqDbQuery count = SeqDbQuery.of("status:500").withSize(0).withTotal(true);
    assertThat(count.endpoint()).isEqualTo("/search");
    JsonNode body = MAPPER.readTree(count.body());
    assertThat(body.path("size").asInt()).isEqualTo(1);
    assertThat(body.path("with_total").asBoolean()).isTrue();
  }

  @Test
  void quotesInTheQueryAreEscapedAndNonsenseIsRefused() throws Exception {
    String phrase = "request:\"GET /english/images/top_stories.gif HTTP/1.0\"";
    assertThat(MAPPER.readTree(SeqDbQuery.of(phrase).body()).path("query").path("query").asText())
        .isEqualTo(phrase);
    assertThatThrownBy(() -> SeqDbQuery.of("*").withOffset(-1)).hasMessageContaining("offset");
    assertThatThrownBy(() -> SeqDbAggregation.min(null)).hasMessage("min needs a field");
    assertThatThrownBy(() -> SeqDbAggregation.quantile("size", 1.5)).hasMessageContaining("[0, 1]");
  }
}
