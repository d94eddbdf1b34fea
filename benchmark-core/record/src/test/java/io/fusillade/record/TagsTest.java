package io.fusillade.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TagsTest {
  @ParameterizedTest
  @ValueSource(strings = {"simple", "by id", "a,b c", "50%", "Tag=x", "запрос", "a/b/c", "%41"})
  void requestTagsCarryNoSeparatorsAndDecodeBack(String name) {
    String tag = Tags.request(name, Status.KO);
    assertThat(tag).doesNotContain(" ", ",");
    Tags.Parsed parsed = Tags.parse(tag).orElseThrow();
    assertThat(parsed.name()).isEqualTo(name);
    assertThat(parsed.status()).isEqualTo(Status.KO);
  }

  @ParameterizedTest
  @ValueSource(strings = {"injector.lag", "e2e latency orders"})
  void metricTagsDecodeBack(String name) {
    Tags.Parsed parsed = Tags.parse(Tags.metric(name)).orElseThrow();
    assertThat(parsed.isRequest()).isFalse();
    assertThat(parsed.name()).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "other", "req/MAYBE/x", "req/OK"})
  void foreignTagsAreIgnored(String tag) {
    assertThat(Tags.parse(tag)).isEmpty();
  }
}
