package io.fusillade.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Every JMH benchmark still runs: each one, with each of its parameters, for one warm-up and one
 * measured iteration of 100 ms, in this JVM (no fork, so the whole suite takes seconds). It proves
 * the benchmarks build, set up and measure something, so they cannot rot between the occasions
 * someone runs them for numbers; the numbers themselves mean nothing here and are not judged.
 */
class BenchmarksSmokeTest {
  @Test
  void everyBenchmarkRunsAndMeasuresAPositiveScore() throws Exception {
    Options options =
        new OptionsBuilder()
            .include("io\\.fusillade\\..*Benchmark\\..*")
            .forks(0)
            .warmupIterations(1)
            .warmupTime(TimeValue.milliseconds(100))
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(100))
            .shouldFailOnError(true)
            .verbosity(VerboseMode.SILENT)
            .build();
    Collection<RunResult> results = new Runner(options).run();

    Map<String, Double> scores = new TreeMap<>();
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark();
      for (String key : new TreeSet<>(result.getParams().getParamsKeys())) {
        name += " " + key + "=" + result.getParams().getParam(key);
      }
      scores.put(name, result.getPrimaryResult().getScore());
    }
    assertThat(scores.keySet())
        .as("one result for each benchmark of each benchmark class")
        .contains(
            "io.fusillade.jmh.gen.GeneratorBenchmark.zipf",
            "io.fusillade.jmh.logs.BulkBodyBenchmark.bulkOf5000 gzip=true profile=k8s",
            "io.fusillade.jmh.record.RecorderBenchmark.channelOneThread",
            "io.fusillade.jmh.topic.TopicBenchmark.encodeStamp",
            "io.fusillade.jmh.sql.PgClientBenchmark.pointSelect",
            "io.fusillade.jmh.sql.PgClientBenchmark.pointSelectChecked");
    assertThat(scores)
        .as("scores (ns/op)")
        .allSatisfy((name, score) -> assertThat(score).as(name).isPositive().isFinite());
  }
}
