package io.fusillade.cli;

import io.fusillade.FusilladeException;
import io.fusillade.Secrets;
import io.fusillade.gatling.InjectorShare;
import io.fusillade.k8s.InjectorJob;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code fusillade k8s WORKLOAD --injectors N [-- RUN_OPTIONS]}: writes the Kubernetes manifests of
 * a test run by N injectors (see {@link InjectorJob}).
 */
@Command(
    name = "k8s",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the Kubernetes manifests of a test run by several injectors.",
      "injectors.yml: a ConfigMap with the workload and the common start, a volume claim for the",
      "records, and an Indexed Job of N pods, each 'fusillade run --injectors N --injector-index",
      "<its completion index> --start-at <the start>'. report.yml: the Job that merges their",
      "records into the test's report, to apply once the injectors' Job completed.",
      "Options after the workload and '--' go to each 'fusillade run' (--url, --rate...)."
    })
final class K8sCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "WORKLOAD", description = "The workload YAML file.")
  Path file;

  @Parameters(
      index = "1..*",
      paramLabel = "RUN_OPTION",
      description = "Options of 'fusillade run', after '--' (e.g. -- --url jdbc:... --rate 3000).")
  List<String> runOptions = new ArrayList<>();

  @Option(names = "--injectors", paramLabel = "N", required = true, description = "Injectors.")
  int injectors;

  @Option(
      names = "--image",
      paramLabel = "IMAGE",
      description =
          "The image with the fusillade command (docker/image/Dockerfile); default ${DEFAULT-VALUE},"
              + " which docker/image/build-local.sh injector builds.")
  String image = "fusillade/injector:local";

  @Option(
      names = "--name",
      paramLabel = "NAME",
      description = "The test's name; default: the workload file's.")
  String name;

  @Option(names = "--cpu", description = "CPU each injector requests; default ${DEFAULT-VALUE}.")
  String cpu = "2";

  @Option(names = "--memory", description = "Memory of each injector; default ${DEFAULT-VALUE}.")
  String memory = "2Gi";

  @Option(names = "--storage", description = "The records' volume; default ${DEFAULT-VALUE}.")
  String storage = "1Gi";

  @Option(
      names = "--start-at",
      paramLabel = "INSTANT",
      description =
          "When the injectors start their load (ISO-8601); default: 3 minutes from now, the"
              + " ConfigMap's start-at, to change before applying.")
  String startAt;

  @Option(
      names = "--password-secret",
      paramLabel = "SECRET",
      description =
          "A Secret whose key 'password' is the database password (FUSILLADE_SQL_PASSWORD).")
  String passwordSecret;

  @Option(
      names = "--records",
      paramLabel = "s3://BUCKET/PREFIX",
      description =
          "Where the injectors write their records and the merge its report, instead of a"
              + " volume claim: an S3-compatible bucket (injector I under PREFIX/injector-I).")
  String records;

  @Option(
      names = "--s3-secret",
      paramLabel = "NAME",
      description =
          "A Secret whose keys become the pods' environment for --records: AWS_ACCESS_KEY_ID,"
              + " AWS_SECRET_ACCESS_KEY, and FUSILLADE_S3_ENDPOINT for a store other than AWS.")
  String s3Secret;

  @Option(
      names = "--output",
      paramLabel = "DIR",
      description = "Where the manifests go; default ${DEFAULT-VALUE}.")
  Path output = Path.of("k8s");

  @Override
  public Integer call() throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new FusilladeException("no such workload file: " + file);
    }
    // a workload with mistakes fails here, not in N pods
    io.fusillade.workload.Workload workload = WorkloadFiles.load(file);
    if (!workload.topics().isEmpty()) {
      if (workload.kafka().map(k -> k.bootstrapServers()).isEmpty()
          && runOptions.stream().noneMatch(o -> o.equals("--url") || o.startsWith("--url="))) {
        throw new FusilladeException(
            file
                + ": the injectors' topics are on one cluster: give its bootstrap servers"
                + " (kafka.bootstrap_servers in the file, or -- --url HOST:9092)");
      }
      TopicKind.refuseSplit(workload, file.toString(), injectors);
    }
    refuseLiteralSecrets(Files.readAllLines(file));
    if (records != null && !S3Records.Location.is(records)) {
      throw new FusilladeException(
          "--records: '" + records + "' is not s3://BUCKET/PREFIX (without it, a volume claim)");
    }
    if (s3Secret != null && records == null) {
      throw new FusilladeException("--s3-secret goes with --records s3://BUCKET/PREFIX");
    }
    Instant start =
        startAt != null
            ? InjectorShare.instant(startAt)
            : Instant.now().plus(Duration.ofMinutes(3)).truncatedTo(ChronoUnit.SECONDS);
    String fileName = file.getFileName().toString();
    InjectorJob job;
    try {
      job =
          new InjectorJob(
              name != null ? name : InjectorJob.nameOf(fileName),
              fileName,
              Files.readString(file),
              injectors,
              image,
              cpu,
              memory,
              storage,
              start,
              runOptions,
              passwordSecret,
              records == null ? null : S3Records.Location.parse(records).toString(),
              s3Secret);
    } catch (IllegalArgumentException e) {
      throw new FusilladeException(e.getMessage());
    }
    Files.createDirectories(output);
    Path injectorsFile = output.resolve("injectors.yml");
    Path reportFile = output.resolve("report.yml");
    Files.writeString(injectorsFile, InjectorJob.yaml(job.injectorManifests()));
    Files.writeString(reportFile, InjectorJob.yaml(List.of(job.reportJob())));
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        "Wrote "
            + injectorsFile
            + " and "
            + reportFile
            + ": "
            + injectors
            + " injectors starting at "
            + start
            + ".");
    out.println("  kubectl apply -f " + injectorsFile);
    out.println(
        "  kubectl wait --for=condition=complete --timeout=2h job/fusillade-"
            + job.name()
            + "-injectors");
    out.println("  kubectl apply -f " + reportFile);
    out.flush();
    return 0;
  }

  /** The workload's keys whose values are credentials. */
  private static final java.util.regex.Pattern CREDENTIAL =
      java.util.regex.Pattern.compile(
          "^\\s*-?\\s*(password|api_key|apiKey|token)\\s*:\\s*(\\S.*)$");

  /**
   * Refuses a password the manifests would show to whoever reads them: in a URL of the run options
   * after {@code --} (the Job's command), or written literally in the workload (its ConfigMap).
   * Credentials reach the pods from Kubernetes Secrets: {@code --password-secret} for the
   * database's, {@code --s3-secret} for the bucket's, {@code ${env:NAME}} in the workload.
   */
  private void refuseLiteralSecrets(List<String> lines) {
    for (int i = 0; i < runOptions.size(); i++) {
      String option = runOptions.get(i);
      String value = option.contains("=") ? option.substring(option.indexOf('=') + 1) : option;
      if (Secrets.holdsSecret(value)
          || option.toLowerCase(java.util.Locale.ROOT).contains("password=")) {
        throw new FusilladeException(
            "a run option after -- holds a password ("
                + Secrets.mask(option)
                + "): the Job's command would show it to whoever reads the manifests; give the"
                + " URL without it and the password in a Secret: --password-secret NAME (its key"
                + " 'password' becomes FUSILLADE_SQL_PASSWORD in each pod)");
      }
    }
    for (int i = 0; i < lines.size(); i++) {
      java.util.regex.Matcher m = CREDENTIAL.matcher(lines.get(i));
      if (m.matches() && !m.group(2).strip().startsWith("${env:")) {
        throw new FusilladeException(
            file
                + ":"
                + (i + 1)
                + ": "
                + m.group(1)
                + " is written in the workload, which goes into a ConfigMap: write ${env:NAME}"
                + " instead and give the value in a Secret (--password-secret NAME for"
                + " FUSILLADE_SQL_PASSWORD)");
      }
    }
  }
}
