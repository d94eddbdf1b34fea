package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gen.Distribution;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.ValueType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The example published with Picostress loads unchanged, and its data behaves as declared. */
class PicostressExampleTest {

  static Path fixture(String name) {
    try {
      return Path.of(PicostressExampleTest.class.getResource("/workloads/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Workload load() {
    return WorkloadLoader.load(fixture("picostress-queue.yml"), name -> null).orThrow();
  }

  @Test
  void theExampleValidatesWithoutProblems() {
    LoadResult result = WorkloadLoader.load(fixture("picostress-queue.yml"), name -> null);

    assertThat(result.problems()).isEmpty();
    assertThat(result.isValid()).isTrue();
  }

  @Test
  void typesAndDistributionsAreReadCaseInsensitively() {
    Table cars = load().table("cars_q").orElseThrow();

    assertThat(cars.rowCount()).isEqualTo(100);
    assertThat(cars.columns())
        .extracting(c -> c.type())
        .containsExactly(
            ValueType.INTEGER, ValueType.STRING, ValueType.DATETIME, ValueType.BOOLEAN);
    assertThat(cars.column("brand").orElseThrow().distribution()).isEqualTo(Distribution.zipf(1.1));
    assertThat(cars.primaryKeys()).containsExactly("id", "received");
  }

  @Test
  void engineSpecificKeysAreKeptAsVendorOptions() {
    Workload workload = load();

    assertThat(workload.table("cars_q").orElseThrow().vendorOptions())
        .containsEntry("engine", "memtx")
        .containsEntry("tier", "default")
        .containsEntry("distribution_keys", List.of("id", "received"))
        .containsEntry("timeout", 3.0);
    assertThat(workload.indexes().get(0).vendorOptions())
        .containsEntry("type", "tree")
        .containsEntry("options", List.of(Map.of("name", "hint", "value", true)));
  }

  @Test
  void theQueryKeepsItsDialectCastsAndGetsThreeParams() {
    Query query = load().queries().get(0);

    assertThat(query.sql()).contains("$2::string");
    assertThat(query.params()).hasSize(3);
    assertThat(query.count()).isEqualTo(100);
    assertThat(query.limits()).as("no timeout: the run's").isEqualTo(QueryLimits.NONE);
    assertThat(query.params().get(2).constant()).isEqualTo(true);
  }

  @Test
  void hundredSampledRowsNeverRepeatIdOrReceived() {
    RowGenerator rows = WorkloadData.of(load()).rows("cars_q");
    Set<Object> ids = new HashSet<>();
    Set<Object> received = new HashSet<>();

    for (int i = 0; i < 100; i++) {
      Object[] row = rows.next();
      assertThat(ids.add(row[0])).as("id %s repeats", row[0]).isTrue();
      assertThat(received.add(row[2])).as("received %s repeats", row[2]).isTrue();
      assertThat((Integer) row[0]).isBetween(0, 100);
    }
  }

  @Test
  void theSampleCommandPrintsAHeaderAndHundredRows() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        WorkloadCommands.sample(
            fixture("picostress-queue.yml"),
            "cars_q",
            100,
            RowFormat.CSV,
            null,
            name -> null,
            new PrintWriter(out),
            new PrintWriter(err));

    assertThat(exit).isZero();
    assertThat(err.toString()).isEmpty();
    List<String> lines = out.toString().lines().toList();
    assertThat(lines).hasSize(101);
    assertThat(lines.get(0)).isEqualTo("id,brand,received,stock");
    assertThat(lines.stream().skip(1).map(l -> l.split(",")[0]).distinct()).hasSize(100);
    assertThat(lines.stream().skip(1).map(l -> l.split(",")[2]).distinct()).hasSize(100);
  }

  @Test
  void theCheckCommandPrintsASummaryAndExitsZero() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        WorkloadCommands.check(
            fixture("picostress-queue.yml"),
            null,
            name -> null,
            new PrintWriter(out),
            new PrintWriter(err));

    assertThat(exit).isZero();
    assertThat(err.toString()).isEmpty();
    // the verdict once, last, after the note about its cast
    assertThat(out.toString())
        .startsWith(fixture("picostress-queue.yml") + ": workload QUEUE, seed 1\n")
        .contains("note: " + fixture("picostress-queue.yml") + ":53:70 queries[0].sql: ::string")
        .endsWith(fixture("picostress-queue.yml") + ": OK\n")
        .contains("cars_q: 100 rows, primary key (id, received)")
        .contains("brand: string, zipf(1.1) over [1, 15]")
        .contains("queries: 1, queue of 100")
        .contains("load: queue mode\n"); // config_name: QUEUE is Picostress's queue mode
    System.out.println(out);
  }
}
