package io.fusillade.workload.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.workload.Index;
import io.fusillade.workload.Table;
import io.fusillade.workload.Workload;
import io.fusillade.workload.WorkloadLoader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Picostress example's vendor keys ({@code engine: memtx}, {@code distribution_keys}, {@code
 * tier}, {@code timeout}, index {@code type: tree} with {@code hint}) in each dialect: used where
 * the database has them, named as ignored where it does not.
 */
class VendorDdlTest {
  private static Workload picostress() {
    try {
      Path file =
          Path.of(VendorDdlTest.class.getResource("/workloads/picostress-queue.yml").toURI());
      return WorkloadLoader.load(file, name -> null).orThrow();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private final Table cars = picostress().table("cars_q").orElseThrow();
  private final Index brand = picostress().indexes().get(0);

  @Test
  void picodataGetsItsEngineShardingKeyTierAndTimeoutInTheStatement() {
    assertThat(SchemaDdl.createTable(cars, Dialect.PICODATA))
        .startsWith("create table cars_q (id integer not null, brand text not null,")
        .endsWith(
            ", primary key (id, received)) using memtx distributed by (id, received)"
                + " in tier \"default\" option (timeout = 3.000)");
    assertThat(SchemaDdl.createIndex(brand, Dialect.PICODATA))
        .isEqualTo(
            "create index cars_brand_index on cars_q using tree (brand) with (hint = true)"
                + " option (timeout = 3.000)");
    assertThat(VendorDdl.table(cars, Dialect.PICODATA).ignored()).isEmpty();
    assertThat(VendorDdl.table(cars, Dialect.PICODATA).timeout()).isNull();
  }

  @Test
  void postgresqlUsesTheIndexMethodAndTheTimeoutAndNamesWhatItCannotUse() {
    assertThat(SchemaDdl.createTable(cars, Dialect.POSTGRESQL))
        .endsWith("primary key (id, received))");
    VendorDdl table = VendorDdl.table(cars, Dialect.POSTGRESQL);
    assertThat(table.timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(table.ignoredLine("table cars_q", Dialect.POSTGRESQL))
        .isEqualTo(
            "table cars_q: ignored by PostgreSQL, which has no equivalent: engine: memtx,"
                + " distribution_keys: [id, received], tier: default");
    assertThat(SchemaDdl.createIndex(brand, Dialect.POSTGRESQL))
        .isEqualTo("create index cars_brand_index on cars_q using btree (brand)");
    assertThat(VendorDdl.index(brand, Dialect.POSTGRESQL).ignored())
        .containsExactly("options.hint: true");
  }

  @Test
  void greenplumDistributesByTheKeysAndTurnsBitsetIntoBitmap() {
    assertThat(SchemaDdl.createTable(cars, Dialect.GREENPLUM))
        .endsWith("primary key (id, received)) distributed by (id, received)");
    Index bitset =
        new Index(
            "i",
            "cars_q",
            List.of("stock"),
            false,
            Map.of(
                "type", "bitset", "options", List.of(Map.of("name", "fillfactor", "value", 70))));
    assertThat(SchemaDdl.createIndex(bitset, Dialect.GREENPLUM))
        .isEqualTo("create index i on cars_q using bitmap (stock) with (fillfactor = 70)");
    assertThat(VendorDdl.index(bitset, Dialect.POSTGRESQL).ignored())
        .containsExactly("type: bitset");
  }

  @Test
  void anotherDatabaseGetsTheStandardStatementsAndEveryKeyNamedAsIgnored() {
    assertThat(SchemaDdl.createIndex(brand, Dialect.GENERIC))
        .isEqualTo("create index cars_brand_index on cars_q (brand)");
    assertThat(VendorDdl.index(brand, Dialect.GENERIC).ignored())
        .containsExactly("type: tree", "options.hint: true");
    assertThat(VendorDdl.index(brand, Dialect.GENERIC).timeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(VendorDdl.table(cars, Dialect.GENERIC).ignoredLine("table cars_q", Dialect.GENERIC))
        .startsWith("table cars_q: ignored by this database, which has no equivalent: engine");
  }
}
