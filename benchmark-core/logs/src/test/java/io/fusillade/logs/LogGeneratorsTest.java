package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class LogGeneratorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<String> lines(LogSource source, long first, int count) {
    JsonBuffer b = new JsonBuffer();
    BulkBodies.append(source, first, count, b);
    return List.of(b.toString().split("\n"));
  }

  @Test
  void theSameSeedGivesTheSameDocumentsAndAnotherSeedOthers() {
    for (LogProfile profile : LogProfile.values()) {
      assertThat(lines(profile.source(42), 0, 500)).isEqualTo(lines(profile.source(42), 0, 500));
      assertThat(lines(profile.source(42), 0, 500)).isNotEqualTo(lines(profile.source(43), 0, 500));
    }
  }

  @Test
  void documentsDependOnlyOnTheirIndexNotOnHowBulksAreCut() {
    for (LogProfile profile : LogProfile.values()) {
      LogSource s = profile.source(7);
      List<String> whole = lines(s, 0, 300);
      List<String> pieces = new java.util.ArrayList<>(lines(s, 0, 100));
      pieces.addAll(lines(s, 200, 100));
      pieces.addAll(200, lines(s, 100, 100));
      assertThat(pieces).isEqualTo(whole);
    }
  }

  @Test
  void bulkBodiesAlternateActionLinesAndValidDocuments() throws Exception {
    for (LogProfile profile : LogProfile.values()) {
      List<String> lines = lines(profile.source(1), 0, 2_000);
      assertThat(lines).hasSize(4_000);
      for (int i = 0; i < lines.size(); i += 2) {
        assertThat(lines.get(i)).isEqualTo("{\"index\":{}}");
        assertThat(JSON.readTree(lines.get(i + 1)).isObject()).isTrue();
      }
    }
  }

  @Test
  void webDocumentsHaveTheSeedsShape() throws Exception {
    WebLogs web = new WebLogs(3);
    long previous = Long.MIN_VALUE;
    Map<Integer, Integer> statuses = new HashMap<>();
    Map<String, Integer> requests = new HashMap<>();
    Set<String> clients = new HashSet<>();
    int n = 20_000;
    List<String> lines = lines(web, 0, n);
    for (int i = 0; i < n; i++) {
      JsonNode doc = JSON.readTree(lines.get(2 * i + 1));
      assertThat(doc.fieldNames())
          .toIterable()
          .containsExactly("@timestamp", "clientip", "request", "status", "size");
      long ts = doc.get("@timestamp").asLong();
      assertThat(ts).isGreaterThanOrEqualTo(previous);
      previous = ts;
      assertThat(doc.get("clientip").asText()).matches("\\d{1,3}(\\.\\d{1,3}){3}");
      assertThat(doc.get("request").asText()).matches("(GET|POST|HEAD) /\\S+ HTTP/1\\.[01]");
      int status = doc.get("status").asInt();
      statuses.merge(status, 1, Integer::sum);
      requests.merge(doc.get("request").asText(), 1, Integer::sum);
      clients.add(doc.get("clientip").asText());
      assertThat(doc.get("size").asLong()).isNotNegative();
      WebLogs.Entry e = web.entry(i);
      assertThat(e.status()).isEqualTo(status).isEqualTo(web.status(i));
      assertThat(e.clientIpText()).isEqualTo(doc.get("clientip").asText());
      assertThat(e.request()).isEqualTo(doc.get("request").asText());
    }
    assertThat(lines.get(1)).startsWith("{\"@timestamp\":" + WebLogs.DEFAULT_START + ",");
    assertThat(previous).isEqualTo(WebLogs.DEFAULT_START + (n - 1) / 100);
    // 200 dominates; every tail status shows up at about its weight
    for (int k = 0; k < WebLogs.STATUS_CODES.size(); k++) {
      double share = statuses.getOrDefault(WebLogs.STATUS_CODES.get(k), 0) / (double) n;
      assertThat(share).isCloseTo(WebLogs.STATUS_WEIGHTS.get(k), within(0.01));
    }
    // Zipf: the top request is the most frequent, and it is the seed's phrase
    String top =
        requests.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    assertThat(top).isEqualTo(WebLogs.TOP_REQUEST);
    assertThat(requests.get(top)).isGreaterThan(n / 20);
    assertThat(requests.size()).isGreaterThan(500);
    assertThat(clients.size()).isGreaterThan(1_000).isLessThan(n);
  }

  @Test
  void webSizesAreLogNormal() throws Exception {
    WebLogs web = new WebLogs(5);
    double sum = 0;
    double sumSq = 0;
    int n = 0;
    for (int i = 0; i < 20_000; i++) {
      WebLogs.Entry e = web.entry(i);
      if (e.status() != 304) {
        double l = Math.log(e.size());
        sum += l;
        sumSq += l * l;
        n++;
      }
    }
    double mean = sum / n;
    assertThat(mean).isCloseTo(7.4, within(0.05));
    assertThat(Math.sqrt(sumSq / n - mean * mean)).isCloseTo(1.1, within(0.05));
  }

  @Test
  void k8sDocumentsCarryTheProductionFields() throws Exception {
    List<String> lines = lines(new K8sLogs(9), 0, 5_000);
    boolean sawCron = false;
    boolean sawEscapes = false;
    boolean sawNonAscii = false;
    for (int i = 1; i < lines.size(); i += 2) {
      JsonNode doc = JSON.readTree(lines.get(i));
      for (String field :
          List.of(
              "k8s_cluster",
              "k8s_container",
              "k8s_group",
              "k8s_namespace",
              "k8s_node",
              "k8s_pod",
              "k8s_pod_label_cron",
              "client_ip",
              "http_method",
              "message")) {
        assertThat(doc.get(field)).as(field + " in " + lines.get(i)).isNotNull();
        assertThat(doc.get(field).isTextual()).isTrue();
      }
      assertThat(doc.get("http_code").isInt()).isTrue();
      assertThat(doc.get("k8s_pod").asText()).startsWith(doc.get("k8s_group").asText() + "-");
      if (doc.get("k8s_pod_label_cron").asText().equals("true")) {
        sawCron = true;
        assertThat(doc.get("k8s_label_jobid").asText()).matches("\\d+");
      } else {
        assertThat(doc.has("k8s_label_jobid")).isFalse();
      }
      String message = doc.get("message").asText();
      sawEscapes |= message.contains("\"") || message.contains("\\") || message.contains("\t");
      sawNonAscii |= message.chars().anyMatch(c -> c > 127);
    }
    assertThat(sawCron).isTrue();
    assertThat(sawEscapes).isTrue();
    assertThat(sawNonAscii).isTrue();
  }

  @Test
  void gzipGivesTheSameBytesBack() throws Exception {
    JsonBuffer plain = new JsonBuffer();
    BulkBodies.append(new K8sLogs(1), 0, 3_000, plain);
    JsonBuffer packed = new JsonBuffer(16);
    try (BulkBodies bodies = new BulkBodies()) {
      bodies.gzip(plain, packed);
      assertThat(packed.length()).isLessThan(plain.length() / 3);
      try (InputStream in =
          new GZIPInputStream(new ByteArrayInputStream(packed.array(), 0, packed.length()))) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo(plain.toString());
      }
      // reusable
      bodies.gzip(plain, packed);
      try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(packed.toByteArray()))) {
        assertThat(in.readAllBytes()).isEqualTo(plain.toByteArray());
      }
    }
  }

  @Test
  void searchTemplatesAreSeededAndDerivedValuesFollowTheirBase() {
    SearchTemplate t =
        SearchTemplate.of("{\"gte\":{{start}},\"lt\":{{end}},\"from\":{{from}},\"x\":{{nope}}}")
            .param("start", rng -> rng.nextLong(0, 1_000_000))
            .derived("end", "start", s -> s + 50)
            .param("from", rng -> 100 * rng.nextLong(0, 49))
            .seed(11);
    SearchTemplate same =
        SearchTemplate.of(t.body())
            .param("start", rng -> rng.nextLong(0, 1_000_000))
            .derived("end", "start", s -> s + 50)
            .param("from", rng -> 100 * rng.nextLong(0, 49))
            .seed(11);
    assertThat(t.unboundPlaceholders()).containsExactly("nope");
    for (int i = 0; i < 100; i++) {
      String body = t.next();
      assertThat(body).isEqualTo(same.next());
      var m =
          java.util.regex.Pattern.compile(
                  "\\{\"gte\":(\\d+),\"lt\":(\\d+),\"from\":(\\d+),\"x\":\\{\\{nope}}}")
              .matcher(body);
      assertThat(m.matches()).as(body).isTrue();
      assertThat(Long.parseLong(m.group(2)) - Long.parseLong(m.group(1))).isEqualTo(50);
      assertThat(Long.parseLong(m.group(3)) % 100).isZero();
    }
  }

  @Test
  void theSixSearchesAreValidJsonWithTheirRangeInsideTheData() throws Exception {
    WebLogs web = new WebLogs(1);
    List<SearchScenario> six = LogSearches.web(web, 100_000, 1);
    assertThat(six).extracting(SearchScenario::name).isEqualTo(LogSearches.NAMES);
    for (SearchScenario s : six) {
      for (int i = 0; i < 50; i++) {
        JsonNode body = JSON.readTree(s.template().next());
        JsonNode range = body.path("query").path("range").path("@timestamp");
        if (!range.isMissingNode()) {
          assertThat(range.get("gte").asLong()).isBetween(web.start(), web.timestamp(95_000));
          assertThat(range.get("lt").asLong() - range.get("gte").asLong()).isEqualTo(50);
        }
        if (body.has("from")) {
          assertThat(body.get("from").asInt() + body.get("size").asInt())
              .isLessThanOrEqualTo(10_000);
        }
      }
    }
  }
}
