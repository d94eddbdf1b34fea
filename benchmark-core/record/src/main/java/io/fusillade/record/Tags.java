package io.fusillade.record;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Tags of the interval log. HdrHistogram's log format separates fields with commas and spaces, so
 * names are percent-encoded: {@code req/OK/by%20id}, {@code req/KO/by%20id}, {@code
 * metric/injector.lag}.
 */
public final class Tags {
  private static final String REQUEST = "req/";
  private static final String METRIC = "metric/";

  private Tags() {}

  /** What a tag stands for: a request name with a status, or a metric. */
  public record Parsed(String name, Status status) {
    public boolean isRequest() {
      return status != null;
    }
  }

  public static String request(String name, Status status) {
    return REQUEST + status.name() + "/" + encode(name);
  }

  public static String metric(String name) {
    return METRIC + encode(name);
  }

  /** Reads a tag written by this class; empty for tags of other writers. */
  public static Optional<Parsed> parse(String tag) {
    if (tag == null) {
      return Optional.empty();
    }
    if (tag.startsWith(METRIC)) {
      return Optional.of(new Parsed(decode(tag.substring(METRIC.length())), null));
    }
    if (tag.startsWith(REQUEST)) {
      String rest = tag.substring(REQUEST.length());
      int slash = rest.indexOf('/');
      if (slash > 0) {
        try {
          Status status = Status.valueOf(rest.substring(0, slash));
          return Optional.of(new Parsed(decode(rest.substring(slash + 1)), status));
        } catch (IllegalArgumentException unknownStatus) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  static String encode(String name) {
    StringBuilder out = new StringBuilder(name.length() + 8);
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      boolean plain =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '.'
              || c == '_'
              || c == '-'
              || c == '~'
              || c == '@'
              || c == ':';
      if (plain) {
        out.append((char) c);
      } else {
        out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)));
        out.append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }

  static String decode(String encoded) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(encoded.length());
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      if (c == '%' && i + 2 < encoded.length()) {
        bytes.write(Integer.parseInt(encoded.substring(i + 1, i + 3), 16));
        i += 2;
      } else {
        bytes.write(c);
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
