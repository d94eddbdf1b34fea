package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fusillade.k8s.InjectorJob;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade k8s}'s manifests: valid against the Kubernetes API's schema (a Job, a ConfigMap
 * and a volume claim), an Indexed Job whose pods run the workload's share by their completion
 * index, and a merge Job over their records.
 */
class K8sCommandTest {
  @TempDir Path dir;

  private List<JsonNode> documents(Path file) throws Exception {
    List<JsonNode> docs = new ArrayList<>();
    try (var parser = new YAMLFactory().createParser(file.toFile())) {
      var it = new ObjectMapper().readValues(parser, JsonNode.class);
      while (it.hasNext()) {
        docs.add(it.next());
      }
    }
    return docs;
  }

  private List<JsonNode> generate(String... more) throws Exception {
    Path workload = dir.resolve("Orders_v2.yml");
    Files.writeString(
        workload,
        "queries:\n  - sql: select $1::integer\n    params: [{type: integer, range: [1, 10]}]\n"
            + "load: {mode: rate, rate: 3000, duration: 60s}\n");
    List<String> args =
        new ArrayList<>(
            List.of(
                "k8s",
                workload.toString(),
                "--injectors",
                "3",
                "--image",
                "registry.example/fusillade:1.0",
                "--start-at",
                "2026-11-25T21:00:00Z",
                "--password-secret",
                "orders-db",
                "--output",
                dir.resolve("k8s").toString()));
    args.addAll(List.of(more));
    args.addAll(List.of("--", "--url", "jdbc:postgresql://db:5432/app", "--check", "p99 < 50ms"));
    var run = CliRun.of(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
    assertThat(run.out()).contains("kubectl apply -f ");
    List<JsonNode> all = new ArrayList<>(documents(dir.resolve("k8s").resolve("injectors.yml")));
    all.addAll(documents(dir.resolve("k8s").resolve("report.yml")));
    return all;
  }

  @Test
  void theInjectorsAreAnIndexedJobRunningTheirShareOfTheWorkload() throws Exception {
    List<JsonNode> docs = generate();
    assertThat(docs)
        .extracting(d -> d.path("kind").asText() + " " + d.path("metadata").path("name").asText())
        .containsExactly(
            "ConfigMap fusillade-orders-v2-workload",
            "PersistentVolumeClaim fusillade-orders-v2-records",
            "Job fusillade-orders-v2-injectors",
            "Job fusillade-orders-v2-report");
    assertThat(docs.get(0).path("data").path("Orders_v2.yml").asText()).contains("rate: 3000");
    assertThat(docs.get(0).path("data").path("start-at").asText())
        .isEqualTo("2026-11-25T21:00:00Z");
    JsonNode job = docs.get(2).path("spec");
    assertThat(job.path("completionMode").asText()).isEqualTo("Indexed");
    assertThat(job.path("completions").asInt()).isEqualTo(3);
    assertThat(job.path("parallelism").asInt()).isEqualTo(3);
    JsonNode container = job.path("template").path("spec").path("containers").get(0);
    assertThat(container.path("image").asText()).isEqualTo("registry.example/fusillade:1.0");
    assertThat(container.path("command").get(2).asText())
        .isEqualTo(
            "exec fusillade run /workload/Orders_v2.yml --injectors 3 --injector-index"
                + " \"$JOB_COMPLETION_INDEX\" --start-at \"$START_AT\" --output"
                + " \"/records/injector-$JOB_COMPLETION_INDEX\" --url jdbc:postgresql://db:5432/app"
                + " --check 'p99 < 50ms'");
    assertThat(container.path("env").toString())
        .contains("FUSILLADE_SQL_PASSWORD")
        .contains("\"name\":\"orders-db\"");
    assertThat(
            docs.get(3)
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("command")
                .get(2)
                .asText())
        .isEqualTo(
            "exec fusillade report $(ls -d /records/injector-*/*/) --output /records/report");
  }

  @Test
  void recordsInABucketNeedNoVolumeClaimAndTheMergeReadsThemThere() throws Exception {
    List<JsonNode> docs =
        generate("--records", "s3://test-runs/orders/nightly", "--s3-secret", "runs-bucket");
    assertThat(docs)
        .extracting(d -> d.path("kind").asText())
        .containsExactly("ConfigMap", "Job", "Job");
    JsonNode injector = docs.get(1).path("spec").path("template").path("spec");
    JsonNode container = injector.path("containers").get(0);
    assertThat(container.path("command").get(2).asText())
        .contains("--output s3://test-runs/orders/nightly/injector-\"$JOB_COMPLETION_INDEX\"");
    assertThat(container.path("envFrom").get(0).path("secretRef").path("name").asText())
        .isEqualTo("runs-bucket");
    assertThat(container.path("volumeMounts").toString()).doesNotContain("records");
    assertThat(injector.path("volumes").toString()).doesNotContain("persistentVolumeClaim");
    assertThat(
            docs.get(2)
                .path("spec")
                .path("template")
                .path("spec")
                .path("containers")
                .get(0)
                .path("command")
                .get(2)
                .asText())
        .isEqualTo(
            "exec fusillade report s3://test-runs/orders/nightly --output"
                + " s3://test-runs/orders/nightly/report");
    CliRun notABucket =
        CliRun.of(
            "k8s",
            dir.resolve("Orders_v2.yml").toString(),
            "--injectors",
            "2",
            "--records",
            "/mnt/x");
    assertThat(notABucket.exitCode()).isEqualTo(2);
    assertThat(notABucket.err()).contains("--records: '/mnt/x' is not s3://BUCKET/PREFIX");
  }

  @Test
  void theManifestsAreValidAgainstTheKubernetesApiSchema() throws Exception {
    Optional<KubernetesSchema> schema = KubernetesSchema.find();
    if (schema.isEmpty()) {
      String where =
          "-D"
              + KubernetesSchema.PROPERTY
              + ", "
              + KubernetesSchema.VARIABLE
              + ", "
              + KubernetesSchema.INSTALLED;
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true but no Kubernetes JSON schema (" + where + "): .ci/run extracts it");
      }
      Assumptions.abort("no Kubernetes JSON schema (" + where + ")");
    }
    List<JsonNode> docs = generate();
    docs.addAll(generate("--records", "s3://test-runs/orders", "--s3-secret", "runs-bucket"));
    for (JsonNode doc : docs) {
      assertThat(schema.get().problems(doc))
          .as("%s %s", doc.path("kind").asText(), doc.path("metadata").path("name").asText())
          .isEmpty();
    }
    // the check can fail: a field the API does not have is an error
    JsonNode broken = generate().get(2).deepCopy();
    ((com.fasterxml.jackson.databind.node.ObjectNode) broken.path("spec"))
        .put("completionsMode", "Indexed");
    assertThat(schema.get().problems(broken)).isNotEmpty();
  }

  @Test
  void aTopicsWorkloadSplitsOverTheInjectorsOfOneCluster() throws Exception {
    Path topics = dir.resolve("t.yml");
    Files.writeString(
        topics,
        "topics:\n  - {name: t, partitions: 8, producers: 8, consumers: 8, rate: 8000,"
            + " duration: 60s}\n");
    // each pod on an embedded cluster of its own would be N tests
    var run = CliRun.of("k8s", topics.toString(), "--injectors", "3", "--image", "i:1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err())
        .contains("the injectors' topics are on one cluster: give its bootstrap servers");

    Path out = dir.resolve("topics-k8s");
    run =
        CliRun.of(
            "k8s",
            topics.toString(),
            "--injectors",
            "3",
            "--image",
            "i:1",
            "--start-at",
            "2026-12-02T10:00:00Z",
            "--output",
            out.toString(),
            "--",
            "--url",
            "kafka:9092");
    assertThat(run.exitCode()).as(run.err()).isZero();
    List<JsonNode> docs = new ArrayList<>();
    try (var files = Files.list(out)) {
      for (Path f : files.sorted().toList()) {
        docs.addAll(documents(f));
      }
    }
    JsonNode injectors =
        docs.stream()
            .filter(d -> d.path("spec").path("completionMode").asText().equals("Indexed"))
            .findFirst()
            .orElseThrow();
    assertThat(injectors.path("spec").path("completions").asInt()).isEqualTo(3);
    assertThat(injectors.toString())
        .contains("--injectors 3 --injector-index \\\"$JOB_COMPLETION_INDEX\\\"")
        .contains("--url kafka:9092");
    Optional<KubernetesSchema> schema = KubernetesSchema.find();
    if (schema.isPresent()) { // required with CI=true: theManifestsAreValid... fails without it
      for (JsonNode doc : docs) {
        assertThat(schema.get().problems(doc)).as(doc.path("kind").asText()).isEmpty();
      }
    }

    // steps are judged on one injector's counts: refused before any pod starts
    Files.writeString(
        topics,
        "kafka: {bootstrap_servers: kafka:9092}\ntopics:\n  - {name: t, steps: {start: 100,"
            + " increment: 100, count: 3, duration: 10s}}\n");
    run = CliRun.of("k8s", topics.toString(), "--injectors", "3", "--image", "i:1");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.err()).contains("topic t: steps: are judged on one injector's delivery counts");
  }

  @Test
  void aTestNameComesFromTheWorkloadsFileName() {
    assertThat(InjectorJob.nameOf("Orders_v2.yml")).isEqualTo("orders-v2");
    assertThat(InjectorJob.nameOf("__.yaml")).isEqualTo("test");
    assertThat(InjectorJob.quote("p99 < 50ms")).isEqualTo("'p99 < 50ms'");
    assertThat(InjectorJob.quote("it's")).isEqualTo("'it'\\''s'");
  }
}
