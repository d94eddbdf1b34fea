package io.fusillade.logs;

import io.fusillade.gen.AliasTable;
import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import io.fusillade.gen.Zipf;
import java.util.ArrayList;
import java.util.List;

/**
 * Web-access log documents shaped like the seq-db benchmark's data set:
 *
 * <pre>{@code
 * {"@timestamp":897484581,"clientip":"162.146.3.0","request":"GET /images/logo_cfo.gif HTTP/1.1",
 *  "status":200,"size":1504}
 * }</pre>
 *
 * <ul>
 *   <li>{@code @timestamp}: epoch seconds, advancing in order: document {@code i} is at {@code
 *       start + i / docsPerSecond} (by default 100 documents per second of log time from
 *       1998-06-10, the seed's first timestamp).
 *   <li>{@code clientip}: Zipf (s = 1.1) over {@value #CLIENTS} clients, each with a fixed IPv4
 *       address derived from the seed.
 *   <li>{@code request}: Zipf (s = 1.1) over a vocabulary of {@value #URLS} requests; the most
 *       frequent is {@value #TOP_REQUEST}, the phrase the seed's third search looks for.
 *   <li>{@code status}: 200 most of the time, then 304, 206, 302, 404, 403, 400, 500, 503 (see
 *       {@link #STATUS_CODES} and {@link #STATUS_WEIGHTS}).
 *   <li>{@code size}: log-normal, median about 1,600 bytes; 0 for 304.
 * </ul>
 *
 * <p>Every document draws from its own stream, {@code Seeds.derive(seed, index)}, in a fixed order,
 * so {@link #entry(long)} and {@link #write(long, JsonBuffer)} agree, and any range of documents
 * can be built on any thread.
 */
public final class WebLogs implements LogSource {
  /** The seed data set's first timestamp (1998-06-10, the World Cup web logs). */
  public static final long DEFAULT_START = 897_484_581L;

  /** Log-time density: documents per second of {@code @timestamp}. */
  public static final int DEFAULT_DOCS_PER_SECOND = 100;

  /** The request vocabulary's size. */
  public static final int URLS = 5_000;

  /** The number of distinct clients. */
  public static final int CLIENTS = 100_000;

  /** The most frequent request: the phrase of the seed's third search scenario. */
  public static final String TOP_REQUEST = "GET /english/images/top_stories.gif HTTP/1.0";

  /** The status codes, in the order of {@link #STATUS_WEIGHTS}. */
  public static final List<Integer> STATUS_CODES =
      List.of(200, 304, 206, 302, 404, 403, 400, 500, 503);

  /** The probability of each status code. */
  public static final List<Double> STATUS_WEIGHTS =
      List.of(0.80, 0.09, 0.015, 0.02, 0.04, 0.01, 0.01, 0.01, 0.005);

  private static final byte[] K_TIMESTAMP = "{\"@timestamp\":".getBytes();
  private static final byte[] K_CLIENTIP = ",\"clientip\":\"".getBytes();
  private static final byte[] K_REQUEST = "\",\"request\":".getBytes();
  private static final byte[] K_STATUS = ",\"status\":".getBytes();
  private static final byte[] K_SIZE = ",\"size\":".getBytes();

  private final long seed;
  private final long start;
  private final int docsPerSecond;
  private final long documentKey;
  private final long clientKey;
  private final Zipf urlRanks = new Zipf(URLS, 1.1);
  private final Zipf clientRanks = new Zipf(CLIENTS, 1.1);
  private final AliasTable statuses = new AliasTable(STATUS_WEIGHTS);
  private final int[] statusCodes = STATUS_CODES.stream().mapToInt(Integer::intValue).toArray();
  private final String[] requests;
  private final byte[][] quotedRequests;

  /** Web logs for a seed, with the default start and density. */
  public WebLogs(long seed) {
    this(seed, DEFAULT_START, DEFAULT_DOCS_PER_SECOND);
  }

  /**
   * @param seed the data set's seed
   * @param start the first document's {@code @timestamp}, in epoch seconds
   * @param docsPerSecond documents per second of log time, at least 1
   */
  public WebLogs(long seed, long start, int docsPerSecond) {
    if (docsPerSecond < 1) {
      throw new IllegalArgumentException("docsPerSecond must be >= 1, got " + docsPerSecond);
    }
    this.seed = seed;
    this.start = start;
    this.docsPerSecond = docsPerSecond;
    this.documentKey = Seeds.derive(seed, "logs.web.document");
    this.clientKey = Seeds.derive(seed, "logs.web.client");
    this.requests = vocabulary(new Rng(Seeds.derive(seed, "logs.web.urls")));
    this.quotedRequests = new byte[URLS][];
    for (int i = 0; i < URLS; i++) {
      quotedRequests[i] = JsonBuffer.quoted(requests[i]);
    }
  }

  @Override
  public String name() {
    return "web";
  }

  public long seed() {
    return seed;
  }

  /** The {@code @timestamp} of document {@code index}. */
  public long timestamp(long index) {
    return start + index / docsPerSecond;
  }

  /** The first document's {@code @timestamp}. */
  public long start() {
    return start;
  }

  public int docsPerSecond() {
    return docsPerSecond;
  }

  /**
   * One web-access document as values.
   *
   * @param timestamp epoch seconds
   * @param clientIp the IPv4 address as an unsigned 32-bit number
   * @param request the request line
   * @param status the HTTP status
   * @param size the response size in bytes
   */
  public record Entry(long timestamp, int clientIp, String request, int status, long size) {
    /** The names of the fields, as in the documents. */
    public static final java.util.List<String> FIELDS =
        java.util.List.of("@timestamp", "clientip", "request", "status", "size");

    /**
     * A field's value as text, as a search compares it ({@code "500"}, {@code "162.146.3.0"}).
     *
     * @param field one of {@link #FIELDS}
     * @return the value, or null for another field
     */
    public String value(String field) {
      return switch (field) {
        case "@timestamp" -> Long.toString(timestamp);
        case "clientip" -> clientIpText();
        case "request" -> request;
        case "status" -> Integer.toString(status);
        case "size" -> Long.toString(size);
        default -> null;
      };
    }

    /** The address in dotted form. */
    public String clientIpText() {
      return (clientIp >>> 24)
          + "."
          + ((clientIp >>> 16) & 0xFF)
          + "."
          + ((clientIp >>> 8) & 0xFF)
          + "."
          + (clientIp & 0xFF);
    }
  }

  /** Document {@code index} as values: the same as {@link #write(long, JsonBuffer)} writes. */
  public Entry entry(long index) {
    Rng rng = new Rng(Seeds.derive(documentKey, index));
    int url = (int) urlRanks.sample(rng) - 1;
    int ip = clientIp(clientRanks.sample(rng));
    int status = statusCodes[statuses.sample(rng)];
    long size = size(rng, status);
    return new Entry(timestamp(index), ip, requests[url], status, size);
  }

  @Override
  public void write(long index, JsonBuffer out) {
    Rng rng = new Rng(Seeds.derive(documentKey, index));
    int url = (int) urlRanks.sample(rng) - 1;
    int ip = clientIp(clientRanks.sample(rng));
    int status = statusCodes[statuses.sample(rng)];
    long size = size(rng, status);
    out.raw(K_TIMESTAMP).number(timestamp(index));
    out.raw(K_CLIENTIP);
    writeIp(ip, out);
    out.raw(K_REQUEST).raw(quotedRequests[url]);
    out.raw(K_STATUS).number(status);
    out.raw(K_SIZE).number(size).raw((byte) '}');
  }

  /** The status of document {@code index} (cheaper than {@link #entry(long)}). */
  public int status(long index) {
    Rng rng = new Rng(Seeds.derive(documentKey, index));
    urlRanks.sample(rng);
    clientRanks.sample(rng);
    return statusCodes[statuses.sample(rng)];
  }

  static void writeIp(int ip, JsonBuffer out) {
    out.number(ip >>> 24).raw((byte) '.').number((ip >>> 16) & 0xFF).raw((byte) '.');
    out.number((ip >>> 8) & 0xFF).raw((byte) '.').number(ip & 0xFF);
  }

  private int clientIp(long rank) {
    int bits = (int) Seeds.mix(clientKey + rank);
    // A first octet in 1..223: no 0.x.x.x, multicast or reserved addresses.
    int first = 1 + (int) ((bits >>> 24) * 223L / 256);
    return (first << 24) | (bits & 0xFFFFFF);
  }

  private static long size(Rng rng, int status) {
    double g = rng.nextGaussian();
    if (status == 304) {
      return 0;
    }
    return Math.min(50_000_000L, Math.round(Math.exp(7.4 + 1.1 * g)));
  }

  private static final String[] LANGUAGES = {"english", "french", "spanish", "german", "japanese"};
  private static final String[] SECTIONS = {
    "images", "news", "teams", "history", "tickets", "venues", "competition", "individuals"
  };
  private static final String[] WORDS = {
    "top", "stories", "logo", "cfo", "hm", "bg", "nav", "inet", "team", "match", "day", "results",
    "photo", "home", "arrow", "button", "fra", "bra", "ger", "ita", "score", "live", "news", "cup"
  };
  private static final String[] EXTENSIONS = {".gif", ".html", ".jpg", ".htm", ".css", ".js"};

  private static String[] vocabulary(Rng rng) {
    List<String> list = new ArrayList<>(URLS);
    list.add(TOP_REQUEST);
    while (list.size() < URLS) {
      double m = rng.nextDouble();
      String method = m < 0.9 ? "GET" : m < 0.97 ? "POST" : "HEAD";
      StringBuilder path = new StringBuilder("/");
      path.append(LANGUAGES[(int) rng.nextUnsigned(LANGUAGES.length)]).append('/');
      path.append(SECTIONS[(int) rng.nextUnsigned(SECTIONS.length)]).append('/');
      int words = 1 + (int) rng.nextUnsigned(3);
      for (int w = 0; w < words; w++) {
        if (w > 0) {
          path.append('_');
        }
        path.append(WORDS[(int) rng.nextUnsigned(WORDS.length)]);
      }
      if (rng.nextBoolean(0.3)) {
        path.append(rng.nextLong(1, 999));
      }
      path.append(EXTENSIONS[(int) rng.nextUnsigned(EXTENSIONS.length)]);
      String protocol = rng.nextBoolean(0.8) ? "HTTP/1.0" : "HTTP/1.1";
      String request = method + " " + path + " " + protocol;
      if (!request.equals(TOP_REQUEST)) {
        list.add(request);
      }
    }
    return list.toArray(new String[0]);
  }
}
