package io.fusillade.logs;

import io.fusillade.gen.AliasTable;
import io.fusillade.gen.Rng;
import io.fusillade.gen.Seeds;
import io.fusillade.gen.Zipf;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Kubernetes container log documents shaped like the seq-db benchmark's production data set: the
 * fields its {@code k8s-logs-index} maps ({@code k8s_cluster, k8s_container, k8s_group,
 * k8s_label_jobid, k8s_namespace, k8s_node, k8s_pod, k8s_pod_label_cron, client_ip} as keywords,
 * {@code http_code} integer, {@code http_method} keyword, {@code message} text) plus an unmapped
 * {@code @timestamp} in epoch seconds.
 *
 * <p>Skew: a few clusters, Zipf over namespaces, workloads and nodes; about one pod in ten belongs
 * to a cron job (and then has a {@code k8s_label_jobid}); 5xx and 4xx codes in the tail. Messages
 * are access lines or error lines; some contain quotes, backslashes, tabs and non-ASCII text, as
 * real logs do, so the JSON escaping is exercised.
 *
 * <p>Document {@code i} depends only on the seed and {@code i} (see {@link LogSource}).
 */
public final class K8sLogs implements LogSource {
  private static final String[] CLUSTERS = {"prod-eu-1", "prod-eu-2", "prod-us-1", "staging"};
  private static final String[] NAMESPACES = {
    "payments",
    "search",
    "checkout",
    "catalog",
    "auth",
    "billing",
    "logistics",
    "ads",
    "recommendations",
    "notifications",
    "gateway",
    "reports",
    "inventory",
    "pricing",
    "media",
    "profile",
    "chat",
    "support",
    "analytics",
    "monitoring"
  };
  private static final String[] COMPONENTS = {
    "api", "worker", "web", "consumer", "cron", "db-proxy"
  };
  private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "PATCH"};
  private static final List<Double> METHOD_WEIGHTS = List.of(0.7, 0.18, 0.06, 0.03, 0.03);
  private static final int[] CODES = {200, 201, 204, 301, 304, 400, 401, 403, 404, 429, 500, 502};
  private static final List<Double> CODE_WEIGHTS =
      List.of(0.74, 0.05, 0.03, 0.01, 0.04, 0.02, 0.02, 0.01, 0.04, 0.01, 0.02, 0.01);
  private static final String[] PATHS = {
    "/api/v1/orders",
    "/api/v1/items",
    "/api/v2/search",
    "/health",
    "/metrics",
    "/api/v1/users",
    "/api/v1/cart",
    "/static/app.js",
    "/api/v1/payments",
    "/login"
  };
  private static final String[] ERRORS = {
    "failed to parse \"amount\": unexpected token '\\' at C:\\temp\\in.json",
    "upstream timed out\t(110: Connection timed out) while reading response header",
    "Ошибка соединения с базой: пул исчерпан",
    "user \"guest\" not allowed: 権限がありません",
    "panic: runtime error: index out of range [3] with length 3\n\tgoroutine 1 [running]"
  };
  private static final int WORKLOADS = COMPONENTS.length;
  private static final int NODES = 300;
  private static final int REPLICAS = 8;

  private static final byte[] K_TIMESTAMP = "{\"@timestamp\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_CLUSTER = ",\"k8s_cluster\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_NAMESPACE = ",\"k8s_namespace\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_GROUP = ",\"k8s_group\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_CONTAINER = ",\"k8s_container\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_POD = ",\"k8s_pod\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_NODE = ",\"k8s_node\":\"node-".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_CRON = ",\"k8s_pod_label_cron\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_JOBID = ",\"k8s_label_jobid\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_CLIENT_IP = ",\"client_ip\":\"".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_CODE = ",\"http_code\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_METHOD = ",\"http_method\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] K_MESSAGE = ",\"message\":".getBytes(StandardCharsets.UTF_8);
  private static final byte[] SIDECAR = JsonBuffer.quoted("istio-proxy");
  private static final byte[] TRUE = JsonBuffer.quoted("true");
  private static final byte[] FALSE = JsonBuffer.quoted("false");

  private final long documentKey;
  private final long start;
  private final int docsPerSecond;
  private final long clientKey;
  private final Zipf clusterRanks = new Zipf(CLUSTERS.length, 1.5);
  private final Zipf namespaceRanks = new Zipf(NAMESPACES.length, 1.1);
  private final Zipf nodeRanks = new Zipf(NODES, 1.1);
  private final Zipf clientRanks = new Zipf(WWW_CLIENTS, 1.1);
  private final AliasTable methods = new AliasTable(METHOD_WEIGHTS);
  private final AliasTable codes = new AliasTable(CODE_WEIGHTS);
  private final byte[][] clusters = quoteAll(CLUSTERS);
  private final byte[][] namespaces = quoteAll(NAMESPACES);
  private final byte[][] components = quoteAll(COMPONENTS);
  private final byte[][] methodNames = quoteAll(METHODS);
  private final byte[][] paths = innerAll(PATHS);
  private final byte[][] errors = innerAll(ERRORS);
  private final byte[][] namespaceText = innerAll(NAMESPACES);
  private final byte[][] componentText = innerAll(COMPONENTS);

  private static final int WWW_CLIENTS = 50_000;

  /** K8s logs for a seed, 1,000 documents per second of log time from 2024-01-01. */
  public K8sLogs(long seed) {
    this(seed, 1_704_067_200L, 1_000);
  }

  /**
   * @param seed the data set's seed
   * @param start the first document's {@code @timestamp}, in epoch seconds
   * @param docsPerSecond documents per second of log time, at least 1
   */
  public K8sLogs(long seed, long start, int docsPerSecond) {
    if (docsPerSecond < 1) {
      throw new IllegalArgumentException("docsPerSecond must be >= 1, got " + docsPerSecond);
    }
    this.documentKey = Seeds.derive(seed, "logs.k8s.document");
    this.clientKey = Seeds.derive(seed, "logs.k8s.client");
    this.start = start;
    this.docsPerSecond = docsPerSecond;
  }

  @Override
  public String name() {
    return "k8s";
  }

  @Override
  public void write(long index, JsonBuffer out) {
    Rng rng = new Rng(Seeds.derive(documentKey, index));
    int cluster = (int) clusterRanks.sample(rng) - 1;
    int namespace = (int) namespaceRanks.sample(rng) - 1;
    int component = (int) rng.nextUnsigned(WORKLOADS);
    boolean sidecar = rng.nextBoolean(0.3);
    int replica = (int) rng.nextUnsigned(REPLICAS);
    long node = nodeRanks.sample(rng);
    int ip = (int) Seeds.mix(clientKey + clientRanks.sample(rng));
    int code = CODES[codes.sample(rng)];
    int method = methods.sample(rng);
    int path = (int) rng.nextUnsigned(paths.length);
    long millis = Math.round(Math.exp(3 + rng.nextGaussian()));
    boolean cron = COMPONENTS[component].equals("cron");
    long podHash = Seeds.mix(documentKey ^ (namespace * 131L + component * 17L + replica));

    out.raw(K_TIMESTAMP).number(start + index / docsPerSecond);
    out.raw(K_CLUSTER).raw(clusters[cluster]);
    out.raw(K_NAMESPACE).raw(namespaces[namespace]);
    out.raw(K_GROUP).raw(namespaceText[namespace]).raw((byte) '-').raw(componentText[component]);
    out.raw((byte) '"');
    out.raw(K_CONTAINER).raw(sidecar ? SIDECAR : components[component]);
    out.raw(K_POD).raw(namespaceText[namespace]).raw((byte) '-').raw(componentText[component]);
    out.raw((byte) '-');
    hex(podHash, 10, out);
    out.raw((byte) '"');
    out.raw(K_NODE).number(node).raw((byte) '"');
    out.raw(K_CRON).raw(cron ? TRUE : FALSE);
    if (cron) {
      out.raw(K_JOBID).number(start / 60 + index / (60L * docsPerSecond)).raw((byte) '"');
    }
    out.raw(K_CLIENT_IP);
    WebLogs.writeIp(0x0A000000 | (ip & 0x00FFFFFF), out); // cluster-internal 10.x.y.z
    out.raw((byte) '"');
    out.raw(K_CODE).number(code);
    out.raw(K_METHOD).raw(methodNames[method]);
    out.raw(K_MESSAGE).raw((byte) '"');
    if (code >= 500 || (code == 400 && rng.nextBoolean(0.5))) {
      out.raw(errors[(int) rng.nextUnsigned(errors.length)]);
    } else {
      // 10.1.2.3 - "GET /api/v1/orders/1234 HTTP/1.1" 200 35ms
      out.ascii("access \\\"").raw(methodNames[method], 1, methodNames[method].length - 2);
      out.raw((byte) ' ').raw(paths[path]).raw((byte) '/').number(rng.nextLong(1, 99_999));
      out.ascii(" HTTP/1.1\\\" ").number(code).raw((byte) ' ').number(millis).ascii("ms");
    }
    out.raw((byte) '"').raw((byte) '}');
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private static void hex(long value, int digits, JsonBuffer out) {
    for (int i = digits - 1; i >= 0; i--) {
      out.raw(HEX[(int) (value >>> (i * 4)) & 0xF]);
    }
  }

  private static byte[][] quoteAll(String[] values) {
    byte[][] quoted = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      quoted[i] = JsonBuffer.quoted(values[i]);
    }
    return quoted;
  }

  /** The escaped UTF-8 form without the quotes: to write inside a longer string. */
  private static byte[][] innerAll(String[] values) {
    byte[][] inner = new byte[values.length][];
    for (int i = 0; i < values.length; i++) {
      byte[] q = JsonBuffer.quoted(values[i]);
      inner[i] = java.util.Arrays.copyOfRange(q, 1, q.length - 1);
    }
    return inner;
  }
}
