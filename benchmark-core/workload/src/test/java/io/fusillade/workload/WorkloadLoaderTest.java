package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gen.Distribution;
import io.fusillade.gen.RowGenerator;
import io.fusillade.gen.ValueSpec;
import io.fusillade.gen.ValueType;
import io.fusillade.sql.SqlPlaceholders;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The loader reads Fusillade's extensions and reports every problem of a file at once. */
class WorkloadLoaderTest {

  @TempDir Path dir;

  @Test
  void everyProblemIsReportedAtOnceInFileOrder() {
    LoadResult result =
        WorkloadLoader.parse(
            "cars.yml",
            """
            config_name: cars
            tables_schema:
              - name: cars
                row_count: 10
                columns:
                  - name: id
                    type: integr
                  - name: price
                    type: integer
                    range: [20, 10]
                    colour: red
            queries:
              - sql: select * from cars where id = $1
            """,
            name -> null);

    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(
            "cars.yml:7:15 tables_schema[0].columns[0].type: unknown type 'integr'; did you mean"
                + " 'integer'? (one of integer, long, decimal, double, string, datetime, date,"
                + " boolean, uuid, constant, choice)",
            "cars.yml:10:16 tables_schema[0].columns[1].range: left bound 20 is greater than right"
                + " bound 10",
            "cars.yml:11:9 tables_schema[0].columns[1].colour: unknown key 'colour'",
            "cars.yml:13:10 queries[0].sql: the SQL has 1 placeholder ($1) but 0 params are given");
  }

  @Test
  void fusilladeExtensionsAreRead() {
    Workload workload =
        WorkloadLoader.parse(
                "shop.yml",
                """
                config_name: shop
                seed: 42
                connection:
                  urls: ['${env:PG1}', 'jdbc:postgresql://${env:PG_HOST}:5433/shop']
                  replicas: ['jdbc:postgresql://${env:PG_HOST}:5434/shop?password=${env:PG_PASSWORD}']
                  user: ${env:PG_USER}
                  password: ${env:PG_PASSWORD}
                tables_schema:
                  - name: orders
                    row_count: 1000
                    columns:
                      - name: id
                        type: bigint
                        distribution: sequential
                        unique: true
                      - name: total
                        type: decimal
                        precision: 8
                        scale: 2
                        range: [0.5, 999.99]
                      - name: status
                        type: choice
                        values: [new, paid, shipped]
                        weights: [1, 5, 3]
                      - name: note
                        type: string
                        alphabet: [ru, digits, 'chars:-_']
                        length: [2, 6]
                        is_nullable: true
                        null_percentage: 25
                      - name: placed
                        type: date
                        distribution: Exponential
                        distribution_param: 2
                        range: ['2024-01-01', '2024-12-31']
                queries:
                  - name: by_status
                    sql: select count(*) from orders where status = ? and note <> '?'
                    params:
                      - name: status
                        type: choice
                        values: [new, paid]
                """,
                Map.of(
                        "PG1", "jdbc:postgresql://a/shop",
                        "PG_HOST", "b",
                        "PG_USER", "loader",
                        "PG_PASSWORD", "s3cret")
                    ::get)
            .orThrow();

    assertThat(workload.seed()).hasValue(42);
    Connection connection = workload.connection().orElseThrow();
    assertThat(connection.urls())
        .containsExactly("jdbc:postgresql://a/shop", "jdbc:postgresql://b:5433/shop");
    assertThat(connection.replicas())
        .containsExactly("jdbc:postgresql://b:5434/shop?password=s3cret");
    assertThat(connection.user()).isEqualTo("loader");
    assertThat(connection.password()).isEqualTo("s3cret");
    assertThat(connection.toString()).doesNotContain("s3cret");

    Table orders = workload.table("orders").orElseThrow();
    ValueSpec total = orders.column("total").orElseThrow();
    assertThat(total.type()).isEqualTo(ValueType.DECIMAL);
    assertThat(total.lower()).isEqualTo(new BigDecimal("0.50"));
    assertThat(orders.column("status").orElseThrow().weights()).containsExactly(1.0, 5.0, 3.0);
    assertThat(orders.column("placed").orElseThrow().distribution())
        .isEqualTo(Distribution.exponential(2));
    assertThat(workload.queries().get(0).params().get(0).name()).isEqualTo("status");

    RowGenerator rows = new WorkloadData(workload, 42).rows("orders");
    Object[] first = rows.next();
    Object[] second = rows.next();
    assertThat(first[0]).isEqualTo(0L);
    assertThat(second[0]).isEqualTo(1L);
    assertThat(first[2]).isIn("new", "paid", "shipped");
  }

  @Test
  void binaryContentIsReportedLikeAnyOtherProblem() throws Exception {
    Path file = dir.resolve("image.yml");
    Files.write(file, new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 1, 2, (byte) 0xFF});

    LoadResult result = WorkloadLoader.load(file, name -> null);

    assertThat(result.problems())
        .extracting(Problem::toString)
        .containsExactly(file + ":1:1: not valid YAML: the file is not UTF-8 text");
  }

  @Test
  void aMissingFileIsAProblemNotAnException() {
    LoadResult result = WorkloadLoader.load(dir.resolve("nope.yml"), name -> null);

    assertThat(result.problems()).hasSize(1);
    assertThat(result.problems().get(0).message()).startsWith("cannot read the file");
  }

  @Test
  void placeholdersInsideLiteralsAndCommentsDoNotCount() {
    assertThat(SqlPlaceholders.of("select * from t where a = $1 and b = $2::string").count())
        .isEqualTo(2);
    assertThat(SqlPlaceholders.of("select '$1 and ?', \"?col\" from t where x = ? -- ?").count())
        .isEqualTo(1);
    assertThat(SqlPlaceholders.of("select $$ $1 ? $$, $body$ ? $body$ /* ? */ from t").count())
        .isZero();
    assertThat(SqlPlaceholders.of("select 'it''s ?' where a = $3").highestNumbered()).isEqualTo(3);
    assertThat(SqlPlaceholders.of("select $1, ?").mixed()).isTrue();
  }

  @Test
  void suggestionsFindLikelyTyposOnly() {
    List<String> keys = List.of("tables_schema", "queries", "indexes");

    assertThat(Suggestions.closest("tables_shema", keys)).hasValue("tables_schema");
    assertThat(Suggestions.closest("querys", keys)).hasValue("queries");
    assertThat(Suggestions.closest("colour", keys)).isEmpty();
    assertThat(Suggestions.distance("kitten", "sitting")).isEqualTo(3);
  }

  @Test
  void jsonLinesKeepTypesAndCsvQuotesWhereNeeded() {
    Workload workload =
        WorkloadLoader.parse(
                "t.yml",
                """
                tables_schema:
                  - name: t
                    row_count: 2
                    columns:
                      - name: n
                        type: integer
                        distribution: sequential
                        range: [7, 8]
                      - name: c
                        type: choice
                        values: ['a,b', 'say "hi"']
                        distribution: sequential
                      - name: d
                        type: decimal
                        scale: 1
                        range: [2, 2]
                      - name: z
                        type: string
                        is_nullable: true
                        null_percentage: 100
                """,
                name -> null)
            .orThrow();
    StringWriter csv = new StringWriter();
    StringWriter jsonl = new StringWriter();

    RowSampler.write(new WorkloadData(workload, 1).rows("t"), 2, RowFormat.CSV, csv);
    RowSampler.write(new WorkloadData(workload, 1).rows("t"), 2, RowFormat.JSONL, jsonl);

    assertThat(csv.toString()).isEqualTo("n,c,d,z\n7,\"a,b\",2.0,\n8,\"say \"\"hi\"\"\",2.0,\n");
    assertThat(jsonl.toString())
        .isEqualTo(
            "{\"n\":7,\"c\":\"a,b\",\"d\":2.0,\"z\":null}\n"
                + "{\"n\":8,\"c\":\"say \\\"hi\\\"\",\"d\":2.0,\"z\":null}\n");
  }

  @Test
  void theSampleCommandReportsAnUnknownTableWithASuggestion() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        WorkloadCommands.sample(
            PicostressExampleTest.fixture("picostress-queue.yml"),
            "cars",
            10,
            RowFormat.JSONL,
            7L,
            name -> null,
            new java.io.PrintWriter(out),
            new java.io.PrintWriter(err));

    assertThat(exit).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString()).contains("no table 'cars'; did you mean 'cars_q'?");
  }
}
