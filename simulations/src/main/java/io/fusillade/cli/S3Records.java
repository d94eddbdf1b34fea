package io.fusillade.cli;

import io.fusillade.FusilladeException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Stream;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Run records in an S3-compatible bucket (AWS S3, MinIO, Ceph, Google Cloud Storage's XML API):
 * {@code fusillade run --output s3://bucket/prefix} uploads the run's record under {@code
 * prefix/<run>/} when the run ends, and {@code fusillade report s3://bucket/prefix/...} reads
 * records back, so that the injectors of one test, on machines with no shared disk, leave their
 * records in one place for the merge.
 *
 * <p>The endpoint is AWS's unless {@code -Dfusillade.s3.endpoint} or the environment's {@code
 * FUSILLADE_S3_ENDPOINT}, {@code AWS_ENDPOINT_URL_S3} or {@code AWS_ENDPOINT_URL} names another
 * (then addressed path-style, as MinIO and most S3-compatible stores want). Credentials and region
 * come from the AWS SDK's default chains: {@code AWS_ACCESS_KEY_ID}/{@code AWS_SECRET_ACCESS_KEY}
 * (or {@code -Daws.accessKeyId}/{@code -Daws.secretAccessKey}), a profile, the instance's role;
 * {@code AWS_REGION} or {@code -Daws.region}, else {@code us-east-1}. Errors name the bucket and
 * the endpoint, never a credential.
 */
final class S3Records {
  /** The system property of an S3-compatible endpoint, such as {@code http://minio:9000}. */
  static final String ENDPOINT_PROPERTY = "fusillade.s3.endpoint";

  private S3Records() {}

  /** A place in a bucket: {@code s3://bucket/prefix}. */
  record Location(String bucket, String prefix) {
    /** Whether {@code text} names a bucket rather than a directory. */
    static boolean is(String text) {
      return text != null && text.toLowerCase(Locale.ROOT).startsWith("s3://");
    }

    /**
     * Reads {@code s3://bucket[/prefix]}.
     *
     * @throws FusilladeException when there is no bucket name
     */
    static Location parse(String text) {
      String rest = text.substring("s3://".length());
      int slash = rest.indexOf('/');
      String bucket = slash < 0 ? rest : rest.substring(0, slash);
      String prefix = slash < 0 ? "" : rest.substring(slash + 1).replaceAll("^/+|/+$", "");
      if (!bucket.matches("[a-z0-9][a-z0-9.\\-]{1,61}[a-z0-9]")) {
        throw new FusilladeException(
            "'"
                + text
                + "' is not s3://BUCKET/PREFIX (a bucket name of 3-63 lower-case letters,"
                + " digits, dots and hyphens)");
      }
      return new Location(bucket, prefix);
    }

    /** The key of {@code name} under this prefix. */
    String key(String name) {
      return prefix.isEmpty() ? name : prefix + "/" + name;
    }

    @Override
    public String toString() {
      return "s3://" + bucket + (prefix.isEmpty() ? "" : "/" + prefix);
    }
  }

  /**
   * Uploads every file of the run record {@code run} under {@code target/<run's name>/}.
   *
   * @return where it went
   * @throws FusilladeException naming the bucket and endpoint when the store refuses
   */
  static Location upload(Path run, Location target) {
    Location destination = new Location(target.bucket(), target.key(run.getFileName().toString()));
    uploadFiles(run, destination);
    return destination;
  }

  /**
   * Fails before a run when the bucket cannot be reached with these credentials ({@code
   * HeadBucket}: it exists and they may see it; whether they may write is only known at the upload,
   * whose failure keeps the local copy).
   *
   * @throws FusilladeException naming the bucket and the endpoint
   */
  static void check(Location target) {
    try (S3Client s3 = client()) {
      s3.headBucket(b -> b.bucket(target.bucket()));
    } catch (SdkException e) {
      throw failure("cannot reach the bucket of " + target, e);
    }
  }

  /**
   * Uploads the files of {@code directory} (a report) under {@code target}.
   *
   * @throws FusilladeException naming the bucket and endpoint when the store refuses
   */
  static void uploadFiles(Path directory, Location target) {
    try (S3Client s3 = client();
        Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
        String key = target.key(directory.relativize(file).toString().replace('\\', '/'));
        s3.putObject(
            PutObjectRequest.builder().bucket(target.bucket()).key(key).build(),
            RequestBody.fromFile(file));
      }
    } catch (SdkException e) {
      throw failure("cannot write to " + target, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Downloads the run records under {@code source} into {@code into}: {@code source} itself when it
   * holds a {@code run.json}, else every prefix under it that does (the injectors of one test, at
   * any depth: {@code test/injector-0/SqlRun-.../run.json}).
   *
   * @return the local run directories, in key order
   * @throws FusilladeException when none is there, or the store refuses
   */
  static List<Path> download(Location source, Path into) {
    try (S3Client s3 = client()) {
      List<S3Object> objects = new ArrayList<>();
      String start = source.prefix().isEmpty() ? "" : source.prefix() + "/";
      s3.listObjectsV2Paginator(
              ListObjectsV2Request.builder().bucket(source.bucket()).prefix(start).build())
          .contents()
          .forEach(objects::add);
      TreeSet<String> runs = new TreeSet<>(); // each run's path under the prefix ("": itself)
      for (S3Object object : objects) {
        String relative = object.key().substring(start.length());
        if (relative.equals("run.json")) {
          runs.add("");
        } else if (relative.endsWith("/run.json")) {
          runs.add(relative.substring(0, relative.length() - "/run.json".length()));
        }
      }
      if (runs.isEmpty()) {
        throw new FusilladeException(
            source + " holds no run record (no run.json under it, at " + endpointName() + ")");
      }
      List<Path> directories = new ArrayList<>();
      Path root = into.toAbsolutePath().normalize();
      for (String run : runs) {
        String runPrefix = start + (run.isEmpty() ? "" : run + "/");
        Path directory =
            root.resolve(run.isEmpty() ? lastSegment(source) : run.replaceAll("^/+", ""))
                .normalize();
        if (!directory.startsWith(root) || directory.equals(root)) {
          throw new FusilladeException(
              source + " holds a run under \"" + run + "\", which is not a directory name");
        }
        for (S3Object object : objects) {
          if (!object.key().startsWith(runPrefix) || object.key().endsWith("/")) {
            continue; // another run's, or a directory marker
          }
          Path file = directory.resolve(object.key().substring(runPrefix.length())).normalize();
          if (!file.startsWith(directory)) {
            continue; // a key with ".." in it: never outside the directory
          }
          Files.createDirectories(file.getParent());
          s3.getObject(
              GetObjectRequest.builder().bucket(source.bucket()).key(object.key()).build(), file);
        }
        directories.add(directory);
      }
      return directories;
    } catch (SdkException e) {
      throw failure("cannot read run records from " + source, e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The run directories that command-line arguments name: a local one as {@code local} resolves it,
   * an {@code s3://} location {@link #download downloaded} into a new temporary directory, which is
   * added to {@code temporaries} for the caller to {@link #deleteQuietly delete}.
   *
   * @return the local run directories (or directories of runs), in the order given
   */
  static List<Path> localCopies(
      List<String> sources,
      java.util.function.Function<String, Path> local,
      List<Path> temporaries) {
    List<Path> runs = new ArrayList<>();
    for (String source : sources) {
      if (Location.is(source)) {
        Path into = temporary();
        temporaries.add(into);
        runs.addAll(download(Location.parse(source), into));
      } else {
        runs.add(local.apply(source));
      }
    }
    return runs;
  }

  /** A new temporary directory for a bucket's files. */
  static Path temporary() {
    try {
      return Files.createTempDirectory("fusillade-s3-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes a directory and what it holds, as far as it can: a temporary copy, no longer needed.
   */
  static void deleteQuietly(Path directory) {
    if (directory == null || !Files.exists(directory)) {
      return;
    }
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    } catch (IOException | UncheckedIOException e) {
      // left in the temporary directory
    }
  }

  private static String lastSegment(Location location) {
    String prefix = location.prefix();
    return prefix.isEmpty() ? location.bucket() : prefix.substring(prefix.lastIndexOf('/') + 1);
  }

  private static FusilladeException failure(String what, SdkException e) {
    // The SDK's messages name the bucket, the key and the status, never the secret key.
    return new FusilladeException(what + " at " + endpointName() + ": " + e.getMessage(), e);
  }

  /** The endpoint given to Fusillade, or empty for AWS's own. */
  private static String endpoint() {
    for (String value :
        new String[] {
          System.getProperty(ENDPOINT_PROPERTY),
          System.getenv("FUSILLADE_S3_ENDPOINT"),
          System.getenv("AWS_ENDPOINT_URL_S3"),
          System.getenv("AWS_ENDPOINT_URL")
        }) {
      if (value != null && !value.isBlank()) {
        return value.strip();
      }
    }
    return "";
  }

  private static String endpointName() {
    String endpoint = endpoint();
    return endpoint.isEmpty() ? "AWS S3" : endpoint.replaceFirst("//[^@/]*@", "//");
  }

  private static S3Client client() {
    S3ClientBuilder builder = S3Client.builder().httpClient(UrlConnectionHttpClient.create());
    String endpoint = endpoint();
    URI uri = null;
    if (!endpoint.isEmpty()) {
      try {
        uri = URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        uri = null;
      }
      if (uri == null || uri.getScheme() == null || uri.getHost() == null) {
        throw new FusilladeException(
            "the S3 endpoint '" + endpointName() + "' is not a URL such as http://minio:9000");
      }
    }
    if (uri != null) {
      // S3-compatible stores (MinIO before 2025, s3proxy, Ceph) refuse the SDK's default
      // checksummed uploads in aws-chunked encoding: checksums only where the API requires them.
      builder
          .endpointOverride(uri)
          .forcePathStyle(true)
          .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
          .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
    }
    String region = System.getProperty("aws.region", System.getenv("AWS_REGION"));
    builder.region(Region.of(region == null || region.isBlank() ? "us-east-1" : region));
    return builder.build();
  }
}
