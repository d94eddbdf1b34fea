package io.fusillade.limit;

import io.fusillade.record.SettingValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The objectives every step of a limit search must meet, written as the run checks are: {@code
 * errors < 1%}, {@code p99 < 50ms}, {@code rate >= 95% of target}, {@code lag not growing}, {@code
 * latency not growing}, {@code disk < 2GB} or {@code disk < 80%} (the most the servers' disks held
 * in the step: the queue team's retention test), {@code disk not full} (no disk reached {@value
 * #FULL_PERCENT}% and no write failed with a server's disk error), {@code injector not saturated}.
 * They are judged on one step's seconds after its warm-up ({@link StepMeasure}), not on the whole
 * run.
 *
 * <p>The injector is always judged, whether listed or not: a step at which the load generator
 * lagged or failed requests itself says nothing about the system, and ends the search ({@link
 * LimitResult.Verdict#INJECTOR_LIMIT}). A rate objective is always judged too (95% of the target
 * when none is listed): a system that cannot keep up answers fewer requests than it is sent, and a
 * step where it did is not sustainable whatever its latency.
 */
public final class LimitSlo {
  private static final Pattern ERRORS =
      Pattern.compile("errors\\s*(<=|<)\\s*(\\d+(?:\\.\\d+)?)\\s*%", Pattern.CASE_INSENSITIVE);
  private static final Pattern LATENCY =
      Pattern.compile(
          "(p\\d+(?:\\.\\d+)?|max)\\s*(<=|<)\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s)",
          Pattern.CASE_INSENSITIVE);
  private static final Pattern RATE =
      Pattern.compile(
          "rate\\s*>=\\s*(\\d+(?:\\.\\d+)?)\\s*%\\s*of\\s*target", Pattern.CASE_INSENSITIVE);

  private static final Pattern KNEE =
      Pattern.compile(
          "latency\\s*<\\s*(\\d+(?:\\.\\d+)?)\\s*x\\s*baseline", Pattern.CASE_INSENSITIVE);

  /**
   * The knee objective of a search whose objectives bound no latency: {@value}. A system past its
   * capacity queues; the queue may be steady (its rate met, its latency not growing within a short
   * step) and still make every request wait tens of times longer than at a low rate. Ten times is
   * far beyond the noise of a loaded two-core machine (a p50 moves by 2x with the JIT and the GC,
   * not by 10x) and far below what a queue adds: a queue of one pool's worth of requests already
   * multiplies the latency by the pool's size.
   */
  public static final String DEFAULT_KNEE = "latency < 10x baseline";

  /**
   * The p99 of a step must exceed the baseline's by at least this much to fail the knee: at a
   * baseline of 0.5 ms, ten times is 5 ms, which one collection of the injector's own heap reaches.
   */
  static final double KNEE_P99_FLOOR_MS = 10;

  private static final Pattern DISK =
      Pattern.compile(
          "disk\\s*(<=|<)\\s*(\\d+(?:\\.\\d+)?)\\s*(%|B|kB|KB|MB|GB|TB|KiB|MiB|GiB)",
          Pattern.CASE_INSENSITIVE);

  /** What an objective looks like, for error messages. */
  public static final String FORMS =
      "'errors < 1%', 'p99 < 50ms', 'rate >= 95% of target', 'lag not growing', "
          + "'latency not growing', 'latency < 10x baseline', 'disk < 2GB', 'disk < 80%',"
          + " 'disk not full' or 'injector not saturated'";

  /**
   * The use, %, from which {@code disk not full} takes a disk for full: a tmpfs or filesystem that
   * cannot take one more of Kafka's batches is a few kilobytes short of 100%, and a quota is full
   * at 100.
   */
  public static final double FULL_PERCENT = 99;

  /** How a step's reason starts when {@code disk not full} failed on a disk error. */
  static final String DISK_ERROR = "disk error: ";

  /** How a step's reason starts when {@code disk not full} failed on a disk that filled. */
  static final String DISK_FULL = "disk full: ";

  /**
   * Lower-case fragments of a KO reason that make it a server's disk error: the file system's own
   * ({@code No space left on device}), Kafka's ({@code KafkaStorageException}, {@code
   * KAFKA_STORAGE_ERROR}, a log directory gone offline), or an embedded cluster's account of a
   * broker whose disk filled ({@code broker 0's disk is full: ...}).
   */
  public static final List<String> DISK_ERROR_PHRASES =
      List.of(
          "no space left on device",
          "kafkastorageexception",
          "kafka_storage_error",
          "disk is full",
          "disk error",
          "log dirs have failed");

  /** Whether a KO reason is a server's disk error ({@link #DISK_ERROR_PHRASES}). */
  public static boolean isDiskError(String reason) {
    if (reason == null) {
      return false;
    }
    String r = reason.toLowerCase(Locale.ROOT);
    return DISK_ERROR_PHRASES.stream().anyMatch(r::contains);
  }

  /** A disk objective: the servers' disks held under a size, or used under a share. */
  private record Disk(String text, double bound, boolean percent, boolean le, String unit) {}

  /** The rate objective when none is given: 95% of the target. */
  public static final double DEFAULT_RATE_SHARE = 0.95;

  private final List<String> texts;
  private final Double maxErrorsPercent;
  private final boolean errorsInclusive;
  private final List<Latency> latencies;
  private final double minRateShare;
  private final boolean lagNotGrowing;
  private final boolean latencyNotGrowing;
  private final List<Disk> disks;
  private final boolean diskNotFull;
  private final Double knee;

  /** A latency objective: the OK requests' percentile under a bound. */
  private record Latency(String text, String label, double percentile, double maxMs, boolean le) {}

  private LimitSlo(
      List<String> texts,
      Double maxErrorsPercent,
      boolean errorsInclusive,
      List<Latency> latencies,
      double minRateShare,
      boolean lagNotGrowing,
      boolean latencyNotGrowing,
      List<Disk> disks,
      boolean diskNotFull,
      Double knee) {
    this.texts = List.copyOf(texts);
    this.maxErrorsPercent = maxErrorsPercent;
    this.errorsInclusive = errorsInclusive;
    this.latencies = List.copyOf(latencies);
    this.minRateShare = minRateShare;
    this.lagNotGrowing = lagNotGrowing;
    this.latencyNotGrowing = latencyNotGrowing;
    this.disks = List.copyOf(disks);
    this.diskNotFull = diskNotFull;
    this.knee = knee;
  }

  /**
   * Reads objectives.
   *
   * @throws IllegalArgumentException quoting the first text that is not an objective
   */
  public static LimitSlo parse(List<String> texts) {
    Double errors = null;
    boolean errorsLe = false;
    List<Latency> latencies = new ArrayList<>();
    double rate = DEFAULT_RATE_SHARE;
    boolean lag = false;
    boolean latencyTrend = false;
    List<Disk> disks = new ArrayList<>();
    Double knee = null;
    boolean notFull = false;
    for (String raw : texts) {
      String text = raw == null ? "" : raw.strip();
      Matcher m;
      if ((m = ERRORS.matcher(text)).matches()) {
        errors = Double.parseDouble(m.group(2));
        errorsLe = m.group(1).equals("<=");
      } else if ((m = LATENCY.matcher(text)).matches()) {
        String label = m.group(1).toLowerCase(Locale.ROOT);
        double percentile = label.equals("max") ? 100 : Double.parseDouble(label.substring(1));
        if (percentile <= 0 || percentile > 100) {
          throw new IllegalArgumentException(
              "limit objective '" + text + "': a percentile is between 0 and 100");
        }
        double bound = Double.parseDouble(m.group(3));
        double ms = m.group(4).equalsIgnoreCase("s") ? bound * 1000 : bound;
        latencies.add(new Latency(text, label, percentile, ms, m.group(2).equals("<=")));
      } else if ((m = RATE.matcher(text)).matches()) {
        rate = Double.parseDouble(m.group(1)) / 100;
        if (rate <= 0 || rate > 1) {
          throw new IllegalArgumentException(
              "limit objective '"
                  + text
                  + "': the share of the target is above 0% and at most"
                  + " 100%");
        }
      } else if ((m = DISK.matcher(text)).matches()) {
        String unit = m.group(3);
        double bound = Double.parseDouble(m.group(2));
        boolean percent = unit.equals("%");
        disks.add(
            new Disk(
                text,
                percent ? bound : bound * SettingValues.bytesPerUnit(unit),
                percent,
                m.group(1).equals("<="),
                unit));
      } else if ((m = KNEE.matcher(text)).matches()) {
        knee = Double.parseDouble(m.group(1));
        if (!(knee > 1)) {
          throw new IllegalArgumentException(
              "limit objective '" + text + "': the factor is above 1 (e.g. 10x)");
        }
      } else if (text.equalsIgnoreCase("disk not full")) {
        notFull = true;
      } else if (text.equalsIgnoreCase("lag not growing")) {
        lag = true;
      } else if (text.equalsIgnoreCase("latency not growing")) {
        latencyTrend = true;
      } else if (!text.equalsIgnoreCase("injector not saturated")) {
        throw new IllegalArgumentException("limit objective '" + text + "' is not one of " + FORMS);
      }
    }
    return new LimitSlo(
        texts, errors, errorsLe, latencies, rate, lag, latencyTrend, disks, notFull, knee);
  }

  /** The objectives as written. */
  public List<String> texts() {
    return texts;
  }

  /** Whether the objectives bound a latency: a percentile, or the knee. */
  public boolean boundsLatency() {
    return !latencies.isEmpty() || knee != null;
  }

  /**
   * Whether the objectives judge the latency's trend within a step ({@code latency not growing}).
   */
  public boolean judgesLatencyTrend() {
    return latencyNotGrowing;
  }

  /** Whether the objectives judge consumer lag (topics). */
  public boolean judgesLag() {
    return lagNotGrowing;
  }

  /**
   * Why a step does not meet the objectives, one reason each (empty when it meets them all). The
   * injector is judged apart ({@link StepMeasure#injectorProblem()}).
   */
  public List<String> failures(StepMeasure step) {
    return failures(step, List.of());
  }

  /**
   * Why a step does not meet the objectives, with the knee judged against the steps before it.
   *
   * @param before the steps judged before this one, in order
   */
  public List<String> failures(StepMeasure step, List<StepResult> before) {
    List<String> why = new ArrayList<>();
    if (step.requests() == 0) {
      why.add("no request completed");
      if (diskNotFull) {
        // writes to a broker whose disk filled wait out their delivery timeout: none completes
        why.addAll(diskFull(step).stream().filter(w -> !w.startsWith("disk not full:")).toList());
      }
      return why;
    }
    // Requests are counted by the second they completed in: a window can lose one at each edge,
    // which at a few requests a second is more than 5%.
    if (step.requests() + 2 < minRateShare * step.target() * step.seconds()) {
      why.add(
          String.format(
              Locale.ROOT,
              "rate %s/s < %s%% of %s/s",
              StepResult.rate(step.achieved()),
              StepResult.number(minRateShare * 100),
              StepResult.rate(step.target())));
    }
    if (maxErrorsPercent != null) {
      double percent = step.errorPercent();
      if (errorsInclusive ? percent > maxErrorsPercent : percent >= maxErrorsPercent) {
        why.add(
            String.format(
                Locale.ROOT,
                "errors %s%% %s %s%%",
                StepResult.number(percent),
                errorsInclusive ? ">" : ">=",
                StepResult.number(maxErrorsPercent)));
      }
    }
    for (Latency l : latencies) {
      if (step.okCount() == 0) {
        why.add(l.label() + ": no OK request");
        continue;
      }
      double ms = step.percentileMs(l.percentile());
      if (l.le() ? ms > l.maxMs() : ms >= l.maxMs()) {
        why.add(
            String.format(
                Locale.ROOT,
                "%s %s ms %s %s ms",
                l.label(),
                StepResult.number(ms),
                l.le() ? ">" : ">=",
                StepResult.number(l.maxMs())));
      }
    }
    if (latencyNotGrowing && step.latencyGrowth() != null) {
      why.add(step.latencyGrowth());
    }
    if (knee != null && step.okCount() > 0) {
      why.addAll(knee(step, before));
    }
    for (Disk d : disks) {
      Double measured = d.percent() ? step.diskPercent() : step.diskBytes();
      if (measured == null) {
        why.add(
            "disk: no "
                + (d.percent() ? "filesystem use" : "disk size")
                + " measured (the embedded Kafka's directory.kafka.bytes, or a monitored"
                + " server's filesystem)");
        continue;
      }
      if (d.le() ? measured > d.bound() : measured >= d.bound()) {
        String shown =
            d.percent()
                ? StepResult.number(measured) + "%"
                : StepResult.number(measured / SettingValues.bytesPerUnit(d.unit()))
                    + " "
                    + d.unit();
        why.add(
            "disk "
                + shown
                + (d.le() ? " > " : " >= ")
                + StepResult.number(
                    d.percent() ? d.bound() : d.bound() / SettingValues.bytesPerUnit(d.unit()))
                + (d.percent() ? "%" : " " + d.unit()));
      }
    }
    if (diskNotFull) {
      why.addAll(diskFull(step));
    }
    if (lagNotGrowing) {
      if (step.lagVerdict() == null) {
        why.add("lag: no consumer lag measured");
      } else if (step.lagVerdict().startsWith("growing")) {
        why.add("lag " + step.lagVerdict());
      }
    }
    return why;
  }

  /**
   * {@code disk not full}: a write that failed with a server's disk error (the server's own words,
   * first), then a disk that reached {@value #FULL_PERCENT}% in the step.
   */
  private static List<String> diskFull(StepMeasure step) {
    List<String> why = new ArrayList<>();
    if (step.diskErrors() > 0) {
      why.add(
          DISK_ERROR
              + step.diskErrors()
              + " write"
              + (step.diskErrors() == 1 ? "" : "s")
              + " failed with the server's disk error ("
              + step.diskError()
              + ")");
    }
    Double use = step.diskPercent();
    if (use == null) {
      if (why.isEmpty()) {
        why.add(
            "disk not full: no disk use measured (the embedded Kafka's directory.kafka.use, given"
                + " a disk size, or a monitored server's filesystem)");
      }
    } else if (use >= FULL_PERCENT) {
      why.add(DISK_FULL + StepResult.number(use) + "% used");
    }
    return why;
  }

  /**
   * The knee: this step's p50 against the lowest p50 of the steps that passed before it, its p99
   * against their lowest p99 (and at least {@value #KNEE_P99_FLOOR_MS} ms above it).
   */
  private List<String> knee(StepMeasure step, List<StepResult> before) {
    List<String> why = new ArrayList<>();
    java.util.OptionalDouble p50 =
        before.stream()
            .filter(StepResult::passed)
            .mapToDouble(StepResult::p50Ms)
            .filter(v -> v > 0)
            .min();
    java.util.OptionalDouble p99 =
        before.stream()
            .filter(StepResult::passed)
            .mapToDouble(StepResult::p99Ms)
            .filter(v -> v > 0)
            .min();
    double stepP50 = step.percentileMs(50);
    double stepP99 = step.percentileMs(99);
    if (p50.isPresent() && stepP50 > knee * p50.getAsDouble()) {
      why.add(
          String.format(
              Locale.ROOT,
              "p50 %s ms > %sx the lowest passing step's %s ms (the latency knee: requests queue)",
              StepResult.number(stepP50),
              StepResult.number(knee),
              StepResult.number(p50.getAsDouble())));
    }
    if (p99.isPresent()
        && stepP99 > knee * p99.getAsDouble()
        && stepP99 > p99.getAsDouble() + KNEE_P99_FLOOR_MS) {
      why.add(
          String.format(
              Locale.ROOT,
              "p99 %s ms > %sx the lowest passing step's %s ms (the latency knee: requests queue)",
              StepResult.number(stepP99),
              StepResult.number(knee),
              StepResult.number(p99.getAsDouble())));
    }
    return why;
  }
}
