package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonBufferTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void stringsSurviveARoundTripThroughAJsonParser() throws Exception {
    String[] samples = {
      "plain",
      "quote \" and backslash \\ and slash /",
      "newline\n tab\t cr\r backspace\b formfeed\f",
      "controls \u0000 \u0001 \u001f \u007f",
      "é ß Ж 日本語 emoji 😀 and 𝄞",
      "",
    };
    for (String s : samples) {
      JsonBuffer b = new JsonBuffer(4).ascii("{\"v\":").string(s).ascii("}");
      assertThat(JSON.readTree(b.toByteArray()).get("v").asText()).isEqualTo(s);
      // the same bytes as Jackson's own UTF-8 output, apart from escape spelling
      assertThat(JSON.readValue(b.toByteArray(), java.util.Map.class).get("v")).isEqualTo(s);
    }
  }

  @Test
  void controlCharactersAreEscapedAndNonAsciiIsUtf8() {
    JsonBuffer b = new JsonBuffer().string("a\u0001\"\\\né");
    assertThat(b.toString()).isEqualTo("\"a\\u0001\\\"\\\\\\né\"");
    assertThat(b.toByteArray())
        .isEqualTo("\"a\\u0001\\\"\\\\\\né\"".getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void aLoneSurrogateBecomesTheReplacementCharacter() throws Exception {
    JsonBuffer b = new JsonBuffer().string("x\uD800y");
    assertThat(JSON.readTree(b.toByteArray()).asText()).isEqualTo("x\uFFFDy");
  }

  @Test
  void numbersAreWrittenInDecimal() {
    long[] values = {0, 7, -7, 10, 99, 100, 123456789012345L, Long.MAX_VALUE, Long.MIN_VALUE};
    for (long v : values) {
      assertThat(new JsonBuffer(1).number(v).toString()).isEqualTo(Long.toString(v));
    }
  }

  @Test
  void theBufferGrowsAndResets() {
    JsonBuffer b = new JsonBuffer(16);
    for (int i = 0; i < 10_000; i++) {
      b.number(i).raw((byte) ',');
    }
    assertThat(b.length()).isGreaterThan(16);
    assertThat(b.toString()).startsWith("0,1,2,").endsWith("9999,");
    b.reset();
    assertThat(b.length()).isZero();
  }
}
