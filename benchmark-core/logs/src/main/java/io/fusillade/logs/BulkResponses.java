package io.fusillade.logs;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads {@code _bulk} responses with Jackson's streaming parser: no tree is built, and when the
 * response says {@code "errors":false} before its items (Elasticsearch and OpenSearch write {@code
 * took}, {@code errors}, then {@code items}), parsing stops there.
 */
public final class BulkResponses {
  private static final JsonFactory JSON = new JsonFactory();

  /** Item error types that mean "too busy, retry later" rather than "bad document". */
  public static final String REJECTED = "es_rejected_execution_exception";

  private BulkResponses() {}

  /**
   * Parses a 2xx bulk response.
   *
   * @param body the response bytes
   * @param length how many of them
   * @param documents the documents sent (the answer when {@code errors} is false)
   * @param endNanos when the response arrived
   */
  public static BulkResult parse(byte[] body, int length, int documents, long endNanos) {
    int items = 0;
    int failed = 0;
    int rejected = 0;
    Map<String, Integer> reasons = new HashMap<>();
    try (JsonParser p = JSON.createParser(body, 0, length)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return malformed(documents, endNanos);
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if ("errors".equals(field)) {
          if (value == JsonToken.VALUE_FALSE) {
            return new BulkResult(200, documents, 0, 0, Map.of(), null, endNanos);
          }
        } else if ("items".equals(field) && value == JsonToken.START_ARRAY) {
          while (p.nextToken() == JsonToken.START_OBJECT) {
            items++;
            String type = item(p);
            if (type != null) {
              failed++;
              if (isRejection(type)) {
                rejected++;
              }
              reasons.merge(type, 1, Integer::sum);
            }
          }
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      return malformed(documents, endNanos);
    }
    if (items != documents) {
      // The server answered for fewer (or more) documents than were sent: count the gap as failed.
      int missing = Math.max(0, documents - items);
      if (missing > 0) {
        reasons.merge("no item in response", missing, Integer::sum);
        failed += missing;
      }
    }
    return new BulkResult(200, documents, failed, rejected, reasons, null, endNanos);
  }

  /** Whether an item error type (or "HTTP 429") is back-pressure. */
  public static boolean isRejection(String type) {
    return REJECTED.equals(type)
        || "rejected_execution_exception".equals(type)
        || "status 429".equals(type);
  }

  /**
   * Reads one item ({@code {"index":{...}}}); returns its error type, or null when it succeeded.
   */
  private static String item(JsonParser p) throws IOException {
    String type = null;
    int status = 0;
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      // the operation: index, create, update or delete
      if (p.nextToken() != JsonToken.START_OBJECT) {
        p.skipChildren();
        continue;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if ("status".equals(field) && value == JsonToken.VALUE_NUMBER_INT) {
          status = p.getIntValue();
        } else if ("error".equals(field) && value == JsonToken.START_OBJECT) {
          type = errorType(p);
        } else if ("error".equals(field) && value == JsonToken.VALUE_STRING) {
          type = p.getText();
        } else {
          p.skipChildren();
        }
      }
    }
    if (type == null && status >= 300) {
      type = "status " + status;
    }
    if (status == 429 && type != null && !isRejection(type)) {
      type = REJECTED;
    }
    return type;
  }

  private static String errorType(JsonParser p) throws IOException {
    String type = "error";
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String field = p.currentName();
      JsonToken value = p.nextToken();
      if ("type".equals(field) && value == JsonToken.VALUE_STRING) {
        type = p.getText();
      } else {
        p.skipChildren();
      }
    }
    return type;
  }

  private static BulkResult malformed(int documents, long endNanos) {
    return new BulkResult(
        200,
        documents,
        documents,
        0,
        Map.of("unreadable response", documents),
        "unreadable bulk response",
        endNanos);
  }
}
