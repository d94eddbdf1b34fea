package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.local.LocalPostgres;
import io.fusillade.record.RunFiles;
import io.fusillade.record.RunRecord;
import io.fusillade.record.RunRecordReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fusillade run --mode adaptive} against a capacity that changes by construction: a SQL
 * function sleeps 20 ms for the first 15 s after its first call, 40 ms for the next 15 s, 20 ms
 * again after, on 4 lanes and 4 connections: at most 200 queries a second, then 100, then 200. The
 * rate the run settles at follows each change within {@value #FOLLOW_SECONDS} s (its 5-s median
 * within 15% of the new capacity from then on), and its medians over each phase's last 7 s are
 * within 15% of the capacity.
 *
 * <p>The capacity each phase is judged against is measured, not the sleep's bound: a call costs the
 * sleep plus a round trip and the scheduling of busy processes on two cores, 4 to 6 ms more on this
 * machine on a slow day (200/s became 161/s). Before the run, {@value #LANES} connections call the
 * same work in a closed loop for {@value #CALIBRATION_SECONDS} s ({@link #closedLoop}), as pgbench
 * would: that rate is the fast phase's capacity, and the slow phase's adds the 20 ms more to the
 * same cost per call. The controller's own figures are never the yardstick (a run's served rate is
 * what the controller asked for, when it asks too little).
 */
// Paired, after the timed tests: its claims are seconds to follow a change of capacity, judged,
// like a limit search's steps, with the injector's own lag. Beside two timed tests (CI,
// 2026-12-03) its run recorded 42 seconds of 45 and a recovery took 28 s; beside one other light
// test it followed in 2 and 4 s of its 8 (see cli-tests' pom).
@Tag("paired")
@Tag("slow")
class AdaptiveRunTest {
  /** The seconds within which the rate follows a change of capacity (limits.md says it). */
  static final int FOLLOW_SECONDS = 8;

  private static final int LANES = 4;
  private static final double FAST = 0.020;
  private static final double SLOW = 0.040;
  private static final int CALIBRATION_SECONDS = 2;

  @TempDir Path dir;

  /**
   * The injector's lag threshold of these runs: 100 ms, not 20. They measure how the controller
   * follows the database's capacity; on a shared 2-core machine other processes make the injector
   * lag 20 to 80 ms at any rate, and the controller (rightly) never raises the rate over a lagging
   * injector. {@code AdaptiveControllerTest} holds that rule.
   */
  @org.junit.jupiter.api.BeforeEach
  void tolerateAContendedMachine() {
    previousThreshold = System.setProperty(io.fusillade.plan.PlanProperties.LAG_THRESHOLD, "100");
  }

  /** The threshold before, the test lane's (cli-tests' pom) or none, for the JVM's next tests. */
  private String previousThreshold;

  @org.junit.jupiter.api.AfterEach
  void restoreTheThreshold() {
    if (previousThreshold == null) {
      System.clearProperty(io.fusillade.plan.PlanProperties.LAG_THRESHOLD);
    } else {
      System.setProperty(io.fusillade.plan.PlanProperties.LAG_THRESHOLD, previousThreshold);
    }
  }

  @Test
  void theRateFollowsACapacityThatHalvesThenDoubles() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute("create table capacity (started timestamptz)");
        s.execute("insert into capacity values (null)");
        s.execute(
            """
            create function slow() returns int language plpgsql as $$
            declare
              t float8;
            begin
              update capacity set started = clock_timestamp() where started is null;
              select extract(epoch from clock_timestamp() - started) into t from capacity;
              perform pg_sleep(case when t >= 15 and t < 30 then %s else %s end);
              return 1;
            end $$
            """
                .formatted(SLOW, FAST));
        // the same work without the phases, to measure what a call costs on this machine today
        s.execute(
            """
            create function calibrate(s float8) returns int language plpgsql as $$
            declare
              t float8;
            begin
              select extract(epoch from clock_timestamp() - started) into t from capacity;
              perform pg_sleep(s);
              return 1;
            end $$
            """);
      }
      double perCall = LANES / closedLoop(postgres, "select calibrate(%s)".formatted(FAST));
      double fast = LANES / perCall;
      double slow = LANES / (perCall - FAST + SLOW);
      Path file = dir.resolve("adaptive.yml");
      Files.writeString(file, "queries:\n  - name: slow\n    sql: select slow()\n");
      CliRun run =
          CliRun.of(
              "run",
              file.toString(),
              "--url",
              postgres.jdbcUrl(),
              "--mode",
              "adaptive",
              "--rate",
              "100",
              "--duration",
              "45s",
              "--pool",
              String.valueOf(LANES),
              "--lanes",
              String.valueOf(LANES),
              "--output",
              out("capacity").toString());
      assertThat(run.exitCode()).as(run.out() + run.err()).isZero();

      RunRecord record = record(out("capacity"));
      Map<?, ?> adaptive = (Map<?, ?>) record.manifest().parameters().get("adaptive");
      double[] rates = numbers(adaptive.get("rate"));
      double[] served = numbers(adaptive.get("served"));
      assertThat(rates.length).isBetween(43, 47);
      String curve =
          "capacities %.1f/s and %.1f/s; rates %s, served %s"
              .formatted(fast, slow, Arrays.toString(rates), Arrays.toString(served));
      assertThat(fast)
          .as("the measured capacity, under its bound of %s/s; %s", LANES / FAST, curve)
          .isBetween(LANES / FAST * 0.6, LANES / FAST * 1.05);
      assertThat(median(rates, 8, 15))
          .as("before the change; " + curve)
          .isBetween(fast * 0.85, fast * 1.15);
      assertThat(median(rates, 23, 30)).as("halved; " + curve).isBetween(slow * 0.85, slow * 1.15);
      assertThat(median(rates, 38, 45)).as("doubled; " + curve).isBetween(fast * 0.85, fast * 1.15);
      int down = followedAfter(rates, 15, 30, slow);
      int up = followedAfter(rates, 30, 45, fast);
      System.out.printf(
          "adaptive: capacities measured at %.1f/s and %.1f/s, followed the halving in %d s, the"
              + " doubling in %d s%n",
          fast, slow, down, up);
      assertThat(down)
          .as("seconds to follow the halving; " + curve)
          .isLessThanOrEqualTo(FOLLOW_SECONDS);
      assertThat(up)
          .as("seconds to follow the doubling; " + curve)
          .isLessThanOrEqualTo(FOLLOW_SECONDS);
      assertThat(((Number) adaptive.get("settledRate")).doubleValue()).isPositive();
      assertThat((List<?>) adaptive.get("settledPerMinute")).hasSize(1);
      assertThat(run.out()).contains("adaptive mode: from 100/s", "adaptive: settled at");
    }
  }

  /**
   * The database killed for 6 s mid-run: every request fails (connection refused), the rate falls
   * to under half the capacity within 5 s; after its restart the rate is back within 15% of the
   * capacity (its 5-s median) within 20 s of the last failing second.
   */
  @Test
  void aNodeKilledShowsTheDropAndTheRecovery() throws Exception {
    try (LocalPostgres postgres = LocalPostgres.start()) {
      try (Connection c = postgres.connect();
          Statement s = c.createStatement()) {
        s.execute(
            "create function slow() returns int language sql as"
                + " $$ select 1 from pg_sleep(%s) $$".formatted(FAST));
      }
      double capacity = closedLoop(postgres, "select slow()");
      Path file = dir.resolve("outage.yml");
      Files.writeString(file, "queries:\n  - name: slow\n    sql: select slow()\n");
      Path out = out("outage");
      CompletableFuture<CliRun> running =
          CompletableFuture.supplyAsync(
              () ->
                  CliRun.of(
                      "run",
                      file.toString(),
                      "--url",
                      postgres.jdbcUrl(),
                      "--mode",
                      "adaptive",
                      "--rate",
                      "100",
                      "--duration",
                      "40s",
                      "--pool",
                      String.valueOf(LANES),
                      "--lanes",
                      String.valueOf(LANES),
                      "--output",
                      out.toString()));
      awaitSeconds(out, 14);
      postgres.stopImmediately();
      Thread.sleep(6_000);
      postgres.restart();
      CliRun run = running.get(120, TimeUnit.SECONDS);
      assertThat(run.exitCode()).as(run.out() + run.err()).isIn(0, 3);

      Map<?, ?> adaptive = (Map<?, ?>) record(out).manifest().parameters().get("adaptive");
      double[] rates = numbers(adaptive.get("rate"));
      double[] errors = numbers(adaptive.get("errorPercent"));
      String curve = "rates " + Arrays.toString(rates) + ", errors " + Arrays.toString(errors);
      int killed = 0;
      while (killed < errors.length && errors[killed] < 50) {
        killed++;
      }
      int back = errors.length;
      while (back > killed && errors[back - 1] == 0) {
        back--;
      }
      assertThat(killed).as("the kill seen; " + curve).isBetween(8, 20);
      assertThat(capacity)
          .as("the measured capacity, under its bound of %s/s; %s", LANES / FAST, curve)
          .isBetween(LANES / FAST * 0.6, LANES / FAST * 1.05);
      assertThat(median(rates, killed - 6, killed))
          .as("before; " + curve)
          .isBetween(capacity * 0.85, capacity * 1.15);
      assertThat(rates[Math.min(rates.length - 1, killed + 5)])
          .as("dropped; " + curve)
          .isLessThan(capacity * 0.5);
      int recovered = followedAfter(rates, back, rates.length, capacity);
      System.out.println("adaptive: recovered " + recovered + " s after the last failure");
      assertThat(back + 5).as("recovery seen; " + curve).isLessThanOrEqualTo(rates.length);
      assertThat(recovered).as("seconds to recover; " + curve).isLessThanOrEqualTo(20);
    }
  }

  /** Where a run's record goes: {@code -Dadaptive.out=DIR} keeps it for a look after the test. */
  private Path out(String name) {
    return Path.of(System.getProperty("adaptive.out", dir.toString())).resolve(name);
  }

  /** Waits until the run has recorded {@code seconds} seconds (its counters' lines). */
  private static void awaitSeconds(Path out, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      if (Files.isDirectory(out)) {
        try (Stream<Path> runs = Files.list(out)) {
          for (Path run : runs.toList()) {
            Path counters = run.resolve(RunFiles.COUNTERS);
            if (Files.isRegularFile(counters)
                && Files.readAllLines(counters).stream().filter(l -> l.contains("slow")).count()
                    >= seconds) {
              return;
            }
          }
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the run did not start within 120 s");
  }

  /**
   * The calls a second that {@value #LANES} connections in a closed loop get from {@code sql} over
   * {@value #CALIBRATION_SECONDS} s, each as fast as it is answered: the capacity the run meets on
   * this machine today, as pgbench would measure it. Their sum of each connection's calls over its
   * own time.
   */
  static double closedLoop(LocalPostgres postgres, String sql) throws Exception {
    java.util.concurrent.ExecutorService lanes =
        java.util.concurrent.Executors.newFixedThreadPool(LANES);
    try {
      List<java.util.concurrent.Future<Double>> rates = new java.util.ArrayList<>();
      for (int i = 0; i < LANES; i++) {
        rates.add(
            lanes.submit(
                () -> {
                  try (Connection c = postgres.connect();
                      java.sql.PreparedStatement call = c.prepareStatement(sql)) {
                    call.executeQuery().close(); // the connection's first call prepares it
                    long start = System.nanoTime();
                    long end = start + TimeUnit.SECONDS.toNanos(CALIBRATION_SECONDS);
                    int calls = 0;
                    while (System.nanoTime() < end) {
                      call.executeQuery().close();
                      calls++;
                    }
                    return calls / ((System.nanoTime() - start) / 1e9);
                  }
                }));
      }
      double sum = 0;
      for (java.util.concurrent.Future<Double> rate : rates) {
        sum += rate.get(30, TimeUnit.SECONDS);
      }
      return sum;
    } finally {
      lanes.shutdownNow();
    }
  }

  /** The seconds after {@code change} from which every 5-s median up to {@code end} is near it. */
  static int followedAfter(double[] rates, int change, int end, double capacity) {
    int last = change;
    for (int t = change; t + 5 <= Math.min(end, rates.length); t++) {
      double m = median(rates, t, t + 5);
      if (Math.abs(m - capacity) > 0.15 * capacity) {
        last = t + 1;
      }
    }
    return last - change;
  }

  static double median(double[] rates, int from, int to) {
    double[] part = Arrays.copyOfRange(rates, from, Math.min(to, rates.length));
    Arrays.sort(part);
    int n = part.length;
    return n % 2 == 1 ? part[n / 2] : (part[n / 2 - 1] + part[n / 2]) / 2;
  }

  private static double[] numbers(Object list) {
    return ((List<?>) list).stream().mapToDouble(o -> ((Number) o).doubleValue()).toArray();
  }

  private static RunRecord record(Path out) throws Exception {
    try (Stream<Path> runs = Files.list(out)) {
      return runs.filter(p -> Files.isRegularFile(p.resolve(RunFiles.MANIFEST)))
          .map(RunRecordReader::read)
          .findFirst()
          .orElseThrow();
    }
  }
}
