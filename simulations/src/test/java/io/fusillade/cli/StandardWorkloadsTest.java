package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gen.Distribution;
import io.fusillade.gen.ValueSpec;
import io.fusillade.workload.LoadResult;
import io.fusillade.workload.Query;
import io.fusillade.workload.QuerySelection;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The standard workloads shipped in {@code workloads/}, as files: each passes {@code workload
 * check}, and each has what its benchmark's shape needs (the query sets and their tags, the
 * transactions and their mix, the request distributions). {@code StandardWorkloadsRunTest} and the
 * others run them.
 */
class StandardWorkloadsTest {
  static final Path WORKLOADS = Path.of("..", "workloads");

  static Workload load(String name) {
    LoadResult result = WorkloadLoader.load(WORKLOADS.resolve(name));
    assertThat(result.problems()).as(name).isEmpty();
    return result.orThrow();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "tpch.yml",
        "tpcds.yml",
        "tpcc.yml",
        "ycsb/a.yml",
        "ycsb/b.yml",
        "ycsb/c.yml",
        "ycsb/d.yml",
        "ycsb/e.yml",
        "ycsb/f.yml",
        "topic-streaming.yml",
        "topic-disk-fill.yml"
      })
  void everyShippedWorkloadPassesWorkloadCheck(String name) {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    int exit =
        io.fusillade.workload.WorkloadCommands.check(
            WORKLOADS.resolve(name),
            null,
            System::getenv,
            new java.io.PrintWriter(out),
            new java.io.PrintWriter(err));
    assertThat(exit).as(err.toString()).isZero();
    // the verdict once, last
    assertThat(out.toString()).endsWith(WORKLOADS.resolve(name) + ": OK\n");
  }

  @Test
  void tpchHasAllTwentyTwoQueriesInOrderEachWithSeededParameters() {
    Workload tpch = load("tpch.yml");
    assertThat(tpch.queries())
        .extracting(q -> q.name().split(" ")[0])
        .containsExactlyElementsOf(IntStream.rangeClosed(1, 22).mapToObj(i -> "Q" + i).toList());
    assertThat(tpch.queries()).allSatisfy(q -> assertThat(q.params()).as(q.name()).isNotEmpty());
  }

  @Test
  void tpcdsHasThirtyQueriesOrMoreOfTpcdssShapesTaggedLiteAndFull() {
    Workload tpcds = load("tpcds.yml");
    assertThat(tpcds.tables())
        .extracting(t -> t.name())
        .contains(
            "store_sales",
            "store_returns",
            "date_dim",
            "time_dim",
            "item",
            "customer",
            "customer_address",
            "customer_demographics",
            "household_demographics",
            "store",
            "promotion");
    List<Query> queries = tpcds.queries();
    assertThat(queries).hasSizeGreaterThanOrEqualTo(30);
    assertThat(queries).allSatisfy(q -> assertThat(q.tags()).as(q.name()).contains("full"));
    long lite = queries.stream().filter(q -> q.tags().contains("lite")).count();
    assertThat(lite).isBetween(10L, queries.size() - 5L);
    String all =
        queries.stream().map(q -> q.sql().toLowerCase(Locale.ROOT)).collect(Collectors.joining());
    Map<String, String> shapes =
        Map.of(
            "rollup", "group by rollup",
            "cube", "group by cube",
            "grouping sets", "grouping sets",
            "window function", ") over (",
            "CTE", "with ",
            "intersect", "intersect",
            "except", "except",
            "union all", "union all",
            "correlated subquery", "exists (select",
            "outer join", "left outer join");
    shapes.forEach((shape, text) -> assertThat(all).as(shape).contains(text));
  }

  @Test
  void tpcdsLiteIsASubsetTheSelectionKeepsInFileOrder() {
    Workload tpcds = load("tpcds.yml");
    Workload lite = QuerySelection.parse("lite").apply(tpcds);
    List<Query> expected = tpcds.queries().stream().filter(q -> q.tags().contains("lite")).toList();
    assertThat(lite.queries()).containsExactlyElementsOf(expected);
    assertThat(QuerySelection.parse("full").apply(tpcds).queries())
        .containsExactlyElementsOf(tpcds.queries());
  }

  @Test
  void tpccHasTheFiveTransactionsInTheStandardMixWithNurandKeys() {
    Workload tpcc = load("tpcc.yml");
    assertThat(tpcc.tables()).hasSize(9);
    assertThat(tpcc.queries())
        .extracting(Query::name, Query::count)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("New-Order", 45),
            org.assertj.core.groups.Tuple.tuple("Payment", 43),
            org.assertj.core.groups.Tuple.tuple("Order-Status", 4),
            org.assertj.core.groups.Tuple.tuple("Delivery", 4),
            org.assertj.core.groups.Tuple.tuple("Stock-Level", 4));
    assertThat(tpcc.queries()).allSatisfy(q -> assertThat(q.isTransaction()).as(q.name()).isTrue());
    Query newOrder = tpcc.queries().get(0);
    assertThat(param(newOrder, "c_id").distribution()).isEqualTo(Distribution.nurand(1023, 259));
    assertThat(param(newOrder, "items").distribution().kind()).isEqualTo(Distribution.Kind.NURAND);
    assertThat(param(newOrder, "items").array()).isEqualTo(new ValueSpec.ArraySize(5, 15));
    assertThat(tpcc.table("customer").orElseThrow().column("c_last").orElseThrow().distribution())
        .isEqualTo(Distribution.nurand(255, 157));
  }

  @Test
  void ycsbsCoreWorkloadsHaveTheirMixesAndRequestDistributions() {
    Map<String, Map<String, Integer>> mixes =
        Map.of(
            "a", Map.of("read", 50, "update", 50),
            "b", Map.of("read", 95, "update", 5),
            "c", Map.of("read", 100),
            "d", Map.of("read", 95, "insert", 5),
            "e", Map.of("scan", 95, "insert", 5),
            "f", Map.of("read", 50, "read-modify-write", 50));
    mixes.forEach(
        (letter, mix) -> {
          Workload w = load("ycsb/" + letter + ".yml");
          assertThat(w.queries().stream().collect(Collectors.toMap(Query::name, Query::count)))
              .as(letter)
              .isEqualTo(mix);
          Distribution.Kind requests =
              letter.equals("d") ? Distribution.Kind.LATEST : Distribution.Kind.ZIPF;
          assertThat(w.queries().get(0).params().get(0).distribution().kind())
              .as(letter)
              .isEqualTo(requests);
        });
    assertThat(load("ycsb/f.yml").queries().get(1).isTransaction()).isTrue();
  }

  private static ValueSpec param(Query query, String name) {
    return query.params().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
  }
}
