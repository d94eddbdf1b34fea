package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Issue 16's records in an S3-compatible bucket, against a real S3 API: s3proxy (files behind the
 * S3 protocol, signature V4 checked) in a JVM of its own. {@code fusillade run --output s3://...}
 * uploads the record when the run ends, {@code fusillade report s3://...} reads it back and can
 * write the report there too, and a bucket that cannot be reached stops the run before its load,
 * naming the bucket and the endpoint and never the secret key.
 */
@Tag("slow")
class S3RecordsTest {
  private static final String KEY = "fusillade-test";
  private static final String SECRET = "s3cr3t-key-never-shown";
  private static Process s3proxy;
  private static String endpoint;
  private static S3Client s3;
  private static final Map<String, String> saved = new HashMap<>();

  @TempDir static Path base;

  @BeforeAll
  static void startTheStore() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    endpoint = "http://127.0.0.1:" + port;
    Path data = Files.createDirectories(base.resolve("buckets"));
    Path properties = base.resolve("s3proxy.properties");
    Files.writeString(
        properties,
        String.join(
            "\n",
            "s3proxy.endpoint=" + endpoint,
            "s3proxy.authorization=aws-v2-or-v4",
            "s3proxy.identity=" + KEY,
            "s3proxy.credential=" + SECRET,
            "jclouds.provider=filesystem",
            "jclouds.filesystem.basedir=" + data));
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    s3proxy =
        new ProcessBuilder(
                java.toString(),
                "-jar",
                Path.of("target", "s3proxy", "s3proxy.jar").toAbsolutePath().toString(),
                "--properties",
                properties.toString())
            .redirectErrorStream(true)
            .redirectOutput(base.resolve("s3proxy.log").toFile())
            .start();
    awaitAnswer(endpoint);
    for (Map.Entry<String, String> p :
        Map.of(
                S3Records.ENDPOINT_PROPERTY,
                endpoint,
                "aws.accessKeyId",
                KEY,
                "aws.secretAccessKey",
                SECRET,
                "aws.region",
                "us-east-1")
            .entrySet()) {
      saved.put(p.getKey(), System.getProperty(p.getKey()));
      System.setProperty(p.getKey(), p.getValue());
    }
    s3 =
        S3Client.builder()
            .httpClient(UrlConnectionHttpClient.create())
            .endpointOverride(URI.create(endpoint))
            .forcePathStyle(true)
            .requestChecksumCalculation(
                software.amazon.awssdk.core.checksums.RequestChecksumCalculation.WHEN_REQUIRED)
            .responseChecksumValidation(
                software.amazon.awssdk.core.checksums.ResponseChecksumValidation.WHEN_REQUIRED)
            .region(Region.US_EAST_1)
            .credentialsProvider(
                StaticCredentialsProvider.create(AwsBasicCredentials.create(KEY, SECRET)))
            .build();
    s3.createBucket(b -> b.bucket("runs"));
  }

  @AfterAll
  static void stopTheStore() {
    saved.forEach(
        (name, value) -> {
          if (value == null) {
            System.clearProperty(name);
          } else {
            System.setProperty(name, value);
          }
        });
    if (s3 != null) {
      s3.close();
    }
    if (s3proxy != null) {
      s3proxy.destroyForcibly();
    }
  }

  private static void awaitAnswer(String url) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (true) {
      try {
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/")).build(),
            HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        if (System.nanoTime() > deadline || !s3proxy.isAlive()) {
          throw new IllegalStateException(
              "s3proxy did not start: " + Files.readString(base.resolve("s3proxy.log")));
        }
        Thread.sleep(200);
      }
    }
  }

  private static List<String> keys(String prefix) {
    return s3.listObjectsV2Paginator(b -> b.bucket("runs").prefix(prefix)).contents().stream()
        .map(S3Object::key)
        .toList();
  }

  @Test
  void aRunsRecordGoesToTheBucketAndItsReportComesBackFromIt() throws Exception {
    Path file = base.resolve("w.yml");
    Files.writeString(
        file,
        """
        queries:
          - name: point
            sql: select $1::integer as id
            params:
              - {type: integer, range: [1, 1000]}
        load: {mode: rate, rate: 50, duration: 3s}
        checks: [errors < 1%]
        """);
    CliRun run = CliRun.of("run", file.toString(), "--output", "s3://runs/team-a/nightly");
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    List<String> keys = keys("team-a/nightly/");
    String runJson = keys.stream().filter(k -> k.endsWith("/run.json")).findFirst().orElseThrow();
    String runPrefix = runJson.substring(0, runJson.length() - "/run.json".length());
    assertThat(keys)
        .contains(
            runPrefix + "/counters.jsonl",
            runPrefix + "/latency.hlog",
            runPrefix + "/report/index.html")
        .allMatch(k -> k.startsWith(runPrefix + "/"));
    assertThat(run.out()).contains("Fusillade run record: s3://runs/" + runPrefix);
    assertThat(run.out() + run.err()).doesNotContain(SECRET);

    CliRun report =
        CliRun.of(
            "report", "s3://runs/team-a/nightly", "--output", "s3://runs/team-a/nightly-report");
    assertThat(report.exitCode()).as(report.out() + report.err()).isZero();
    assertThat(report.out()).contains("point", "passed: errors < 1%");
    assertThat(keys("team-a/nightly-report/"))
        .contains("team-a/nightly-report/index.html", "team-a/nightly-report/summary.json");
    String summary =
        s3.getObjectAsBytes(b -> b.bucket("runs").key("team-a/nightly-report/summary.json"))
            .asUtf8String();
    assertThat(summary).contains("\"point\"").contains("150");

    // The bucket as a history: trend's period report reads it as report does.
    Path trendOut = base.resolve("trend");
    CliRun trend =
        CliRun.of(
            "trend",
            "s3://runs/team-a/nightly",
            "--period",
            "24h",
            "--output",
            trendOut.toString());
    assertThat(trend.exitCode()).as(trend.out() + trend.err()).isZero();
    assertThat(trend.out())
        .contains("History: s3://runs/team-a/nightly.")
        .contains("## w.yml")
        .contains("Runs: 1 run this period, no run the previous one.");
    assertThat(trendOut.resolve("trend-24h.json")).exists();
  }

  @Test
  void aBucketThatCannotBeReachedStopsTheRunBeforeItsLoadWithoutTheSecret() throws Exception {
    Path file = base.resolve("never.yml");
    Files.writeString(
        file, "queries:\n  - sql: select 1\nload: {mode: rate, rate: 5, duration: 2s}\n");
    CliRun missing = CliRun.of("run", file.toString(), "--output", "s3://no-such-bucket/x");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.err())
        .contains("cannot reach the bucket of s3://no-such-bucket/x at " + endpoint)
        .doesNotContain(SECRET)
        .doesNotContain("\tat ");
    assertThat(missing.out()).doesNotContain("Simulation");

    String real = System.getProperty("aws.secretAccessKey");
    System.setProperty("aws.secretAccessKey", "wrong-" + real);
    try {
      CliRun refused = CliRun.of("run", file.toString(), "--output", "s3://runs/y");
      assertThat(refused.exitCode()).isEqualTo(2);
      assertThat(refused.err())
          .contains("cannot reach the bucket of s3://runs/y at " + endpoint)
          .doesNotContain(real);
    } finally {
      System.setProperty("aws.secretAccessKey", real);
    }
    CliRun bad = CliRun.of("report", "s3://Bad_Bucket/x");
    assertThat(bad.exitCode()).isEqualTo(2);
    assertThat(bad.err()).contains("is not s3://BUCKET/PREFIX");
  }
}
