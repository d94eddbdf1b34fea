package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the generator says a web data set holds, counted once, checked document by document. */
class WebLogTallyTest {
  private final WebLogs logs = new WebLogs(7);

  @Test
  void countsAndBucketsAgreeWithTheDocumentsThemselves() {
    int n = 20_000;
    WebLogTally.Count errors = WebLogTally.count("status", List.of("500", "400", "403"));
    WebLogTally.Count top = WebLogTally.count("request", List.of(WebLogs.TOP_REQUEST));
    WebLogTally.Buckets perStatus =
        WebLogTally.buckets("status", SeqDbAggregation.Function.COUNT, null);
    WebLogTally.Buckets minSize =
        WebLogTally.buckets("status", SeqDbAggregation.Function.MIN, "size");
    WebLogTally.Buckets avgSize =
        WebLogTally.buckets("status", SeqDbAggregation.Function.AVG, "size");

    WebLogTally.run(logs, n, List.of(errors, top, perStatus, minSize, avgSize));

    long expectedErrors = 0;
    long expectedTop = 0;
    long min200 = Long.MAX_VALUE;
    long sum404 = 0;
    long count404 = 0;
    for (int i = 0; i < n; i++) {
      WebLogs.Entry e = logs.entry(i);
      expectedErrors += List.of(500, 400, 403).contains(e.status()) ? 1 : 0;
      expectedTop += e.request().equals(WebLogs.TOP_REQUEST) ? 1 : 0;
      if (e.status() == 200) {
        min200 = Math.min(min200, e.size());
      }
      if (e.status() == 404) {
        sum404 += e.size();
        count404++;
      }
    }
    assertThat(errors.result()).isEqualTo(expectedErrors).isPositive();
    assertThat(top.result()).isEqualTo(expectedTop).isPositive();
    Map<String, Double> counts = perStatus.result();
    assertThat(counts.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(n);
    assertThat(counts.get("404")).isEqualTo((double) count404);
    assertThat(minSize.result().get("200")).isEqualTo((double) min200);
    assertThat(minSize.result().get("304")).as("a 304 has no body").isEqualTo(0.0);
    assertThat(avgSize.result().get("404")).isEqualTo((double) sum404 / count404);
  }

  @Test
  void aFieldTheProfileDoesNotHaveIsRefusedNamingItsFields() {
    assertThatThrownBy(() -> WebLogTally.count("http_code", List.of("500")))
        .hasMessage(
            "the web profile has no field 'http_code' (its fields: @timestamp, clientip, request,"
                + " status, size)");
    assertThatThrownBy(
            () -> WebLogTally.buckets("status", SeqDbAggregation.Function.MIN, "request"))
        .hasMessageContaining("only size, status and @timestamp are numbers");
  }
}
