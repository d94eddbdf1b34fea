package io.fusillade.k8s;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Kubernetes manifests of a test run by several injectors ({@code fusillade k8s}): an Indexed
 * Job whose completion index is each pod's {@code --injector-index}, the workload in a ConfigMap, a
 * volume claim (or an S3-compatible bucket) where every injector writes its record, and a second
 * Job that merges the records into the test's report once the injectors are done.
 *
 * @param name the test's name: the resources are {@code fusillade-<name>-...}
 * @param workloadFile the workload's file name, as mounted under {@code /workload}
 * @param workload the workload's text
 * @param injectors how many injectors
 * @param image the image with the {@code fusillade} command
 * @param cpu the CPU each injector requests ({@code 2})
 * @param memory the memory each injector requests and is limited to ({@code 2Gi})
 * @param storage the records' volume size ({@code 1Gi})
 * @param startAt when the injectors start their load together
 * @param runOptions more options of {@code fusillade run} ({@code --url}, {@code --rate}...)
 * @param passwordSecret the Secret whose key {@code password} becomes {@code
 *     FUSILLADE_SQL_PASSWORD}, or null
 * @param records {@code s3://bucket/prefix} where the records go instead of a volume claim, or null
 *     for the claim
 * @param s3Secret the Secret whose keys become the pods' environment ({@code AWS_ACCESS_KEY_ID},
 *     {@code AWS_SECRET_ACCESS_KEY}, {@code FUSILLADE_S3_ENDPOINT}...), or null
 */
public record InjectorJob(
    String name,
    String workloadFile,
    String workload,
    int injectors,
    String image,
    String cpu,
    String memory,
    String storage,
    Instant startAt,
    List<String> runOptions,
    String passwordSecret,
    String records,
    String s3Secret) {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final YAMLMapper YAML =
      new YAMLMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE)
              .build());

  /** Checks the values. */
  public InjectorJob {
    if (!name.matches("[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "the test's name \""
              + name
              + "\" is not a Kubernetes name: lower-case letters, digits"
              + " and '-', at most 40");
    }
    if (injectors < 1) {
      throw new IllegalArgumentException("--injectors must be 1 or more, got " + injectors);
    }
    runOptions = List.copyOf(runOptions);
  }

  /** A test name from a workload file's name: {@code Orders_v2.yml} gives {@code orders-v2}. */
  public static String nameOf(String workloadFile) {
    String base = workloadFile.replaceFirst("\\.ya?ml$", "").toLowerCase(Locale.ROOT);
    String name = base.replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    name = name.length() > 40 ? name.substring(0, 40).replaceAll("-+$", "") : name;
    return name.isEmpty() ? "test" : name;
  }

  private String resource(String what) {
    return "fusillade-" + name + "-" + what;
  }

  /**
   * The manifests to apply first: ConfigMap, PersistentVolumeClaim (unless the records go to a
   * bucket) and the injectors' Job.
   */
  public List<ObjectNode> injectorManifests() {
    return records == null
        ? List.of(configMap(), claim(), injectorsJob())
        : List.of(configMap(), injectorsJob());
  }

  /** The manifest to apply once the injectors' Job completed: the merge. */
  public ObjectNode reportJob() {
    String command =
        records == null
            ? "exec fusillade report $(ls -d /records/injector-*/*/) --output /records/report"
            : "exec fusillade report " + quote(records) + " --output " + quote(records + "/report");
    return job(resource("report"), 1, false, command, "report");
  }

  /** Documents as one YAML stream ({@code ---} between them). */
  public static String yaml(List<ObjectNode> documents) {
    List<String> parts = new ArrayList<>();
    try {
      for (ObjectNode d : documents) {
        parts.add(YAML.writeValueAsString(d));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return String.join("---\n", parts);
  }

  private ObjectNode metadata(ObjectNode resource, String resourceName) {
    ObjectNode metadata = resource.putObject("metadata");
    metadata.put("name", resourceName);
    metadata
        .putObject("labels")
        .put("app.kubernetes.io/name", "fusillade")
        .put("fusillade/test", name);
    return metadata;
  }

  private ObjectNode configMap() {
    ObjectNode map = JSON.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
    metadata(map, resource("workload"));
    map.putObject("data").put(workloadFile, workload).put("start-at", startAt.toString());
    return map;
  }

  private ObjectNode claim() {
    ObjectNode pvc = JSON.objectNode().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
    metadata(pvc, resource("records"));
    ObjectNode spec = pvc.putObject("spec");
    spec.putArray("accessModes").add("ReadWriteMany"); // every injector's pod writes its record
    spec.putObject("resources").putObject("requests").put("storage", storage);
    return pvc;
  }

  private ObjectNode injectorsJob() {
    StringBuilder command =
        new StringBuilder("exec fusillade run /workload/")
            .append(workloadFile)
            .append(" --injectors ")
            .append(injectors)
            .append(" --injector-index \"$JOB_COMPLETION_INDEX\"")
            .append(" --start-at \"$START_AT\"")
            .append(" --output ")
            .append(
                records == null
                    ? "\"/records/injector-$JOB_COMPLETION_INDEX\""
                    : quote(records + "/injector-") + "\"$JOB_COMPLETION_INDEX\"");
    for (String option : runOptions) {
      command.append(' ').append(quote(option));
    }
    return job(resource("injectors"), injectors, true, command.toString(), "injector");
  }

  /** A shell word: single-quoted unless it is plain. */
  public static String quote(String word) {
    return word.matches("[A-Za-z0-9_./:=@%+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  private ObjectNode job(
      String jobName, int completions, boolean indexed, String command, String container) {
    ObjectNode job = JSON.objectNode().put("apiVersion", "batch/v1").put("kind", "Job");
    metadata(job, jobName);
    ObjectNode spec = job.putObject("spec");
    if (indexed) {
      // completion index = injector index (JOB_COMPLETION_INDEX in each pod)
      spec.put("completionMode", "Indexed");
    }
    spec.put("completions", completions).put("parallelism", completions);
    spec.put("backoffLimit", 0); // a test is not retried: a failed injector is a failed test
    ObjectNode template = spec.putObject("template");
    template
        .putObject("metadata")
        .putObject("labels")
        .put("fusillade/test", name)
        .put("fusillade/role", container);
    ObjectNode pod = template.putObject("spec");
    pod.put("restartPolicy", "Never");
    if (indexed && completions > 1) {
      // one injector per node where the cluster has enough: injectors must not share CPUs
      ObjectNode term =
          pod.putObject("affinity")
              .putObject("podAntiAffinity")
              .putArray("preferredDuringSchedulingIgnoredDuringExecution")
              .addObject()
              .put("weight", 100)
              .putObject("podAffinityTerm");
      term.put("topologyKey", "kubernetes.io/hostname");
      term.putObject("labelSelector")
          .putObject("matchLabels")
          .put("fusillade/test", name)
          .put("fusillade/role", container);
    }
    ObjectNode c = pod.putArray("containers").addObject();
    c.put("name", container).put("image", image);
    c.putArray("command").add("sh").add("-c").add(command);
    ArrayNode env = c.putArray("env");
    ObjectNode start = env.addObject().put("name", "START_AT");
    start
        .putObject("valueFrom")
        .putObject("configMapKeyRef")
        .put("name", resource("workload"))
        .put("key", "start-at");
    if (passwordSecret != null) {
      ObjectNode password = env.addObject().put("name", "FUSILLADE_SQL_PASSWORD");
      password
          .putObject("valueFrom")
          .putObject("secretKeyRef")
          .put("name", passwordSecret)
          .put("key", "password");
    }
    if (s3Secret != null) {
      c.putArray("envFrom").addObject().putObject("secretRef").put("name", s3Secret);
    }
    ObjectNode resources = c.putObject("resources");
    resources.putObject("requests").put("cpu", cpu).put("memory", memory);
    resources.putObject("limits").put("memory", memory);
    ArrayNode mounts = c.putArray("volumeMounts");
    mounts.addObject().put("name", "workload").put("mountPath", "/workload").put("readOnly", true);
    if (records == null) {
      mounts.addObject().put("name", "records").put("mountPath", "/records");
    }
    ArrayNode volumes = pod.putArray("volumes");
    volumes
        .addObject()
        .put("name", "workload")
        .putObject("configMap")
        .put("name", resource("workload"));
    if (records == null) {
      volumes
          .addObject()
          .put("name", "records")
          .putObject("persistentVolumeClaim")
          .put("claimName", resource("records"));
    }
    return job;
  }
}
