package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.gen.Distribution;
import io.fusillade.gen.ValueSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keys the standard workloads (TPC-H, TPC-DS, TPC-C and YCSB derived) need: query {@code tags}
 * and {@code transaction}, column {@code generated} and {@code repeat}, parameter {@code array},
 * and the {@code hotspot}, {@code latest} and {@code nurand} distributions with their parameters.
 * Read as written; every mistake reported at its file, line, column and field.
 */
class StandardWorkloadKeysTest {

  private static final String VALID =
      """
      tables_schema:
        - name: district
          row_count: 20
          columns:
            - {name: d_id, type: integer, distribution: sequential, range: [1, 10]}
            - {name: d_w_id, type: integer, distribution: sequential, range: [1, 2], repeat: 10}
            - {name: d_label, type: text, generated: "'district ' || d_id"}
            - {name: d_tax, type: decimal, precision: 4, scale: 4, generated: "d_id / 100.0"}
      indexes:
        - {name: district_key, table_name: district, columns_names: [d_w_id, d_id, d_label], unique: true}
      queries:
        - name: new order
          count: 45
          tags: [oltp, write]
          params:
            - {name: w, type: integer, range: [1, 2]}
            - {name: d, type: integer, range: [1, 10]}
            - {name: items, type: integer, distribution: nurand, distribution_param: [8191, 7], range: [1, 100000], array: [5, 15]}
          transaction:
            - update district set d_id = d_id where d_w_id = $1 and d_id = $2
            - select $3::int[], $1::int
        - name: hot read
          tags: [read]
          sql: select * from district where d_id = $1
          params:
            - {type: integer, distribution: hotspot, distribution_param: [0.1, 0.9], range: [1, 10]}
        - name: latest read
          sql: select * from district where d_id = $1
          params:
            - {type: integer, distribution: latest, range: [1, 10]}
      """;

  @Test
  void theStandardWorkloadsKeysAreReadAsWritten() {
    Workload w = WorkloadLoader.parse("valid.yml", VALID, Map.<String, String>of()::get).orThrow();

    Table district = w.table("district").orElseThrow();
    assertThat(district.columns()).extracting(ValueSpec::name).containsExactly("d_id", "d_w_id");
    assertThat(district.column("d_w_id").orElseThrow().repeat()).isEqualTo(10);
    assertThat(district.generated())
        .extracting(GeneratedColumn::name, GeneratedColumn::expression)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("d_label", "'district ' || d_id"),
            org.assertj.core.groups.Tuple.tuple("d_tax", "d_id / 100.0"));
    assertThat(district.generated().get(1).type().scale()).isEqualTo(4);

    Query newOrder = w.queries().get(0);
    assertThat(newOrder.isTransaction()).isTrue();
    assertThat(newOrder.statements()).hasSize(2);
    assertThat(newOrder.sql()).isEqualTo(newOrder.statements().get(0));
    assertThat(newOrder.tags()).containsExactly("oltp", "write");
    assertThat(newOrder.count()).isEqualTo(45);
    ValueSpec items = newOrder.params().get(2);
    assertThat(items.array()).isEqualTo(new ValueSpec.ArraySize(5, 15));
    assertThat(items.distribution()).isEqualTo(Distribution.nurand(8191, 7));

    assertThat(w.queries().get(1).params().get(0).distribution())
        .isEqualTo(Distribution.hotspot(0.1, 0.9));
    assertThat(w.queries().get(1).statements()).containsExactly(w.queries().get(1).sql());
    assertThat(w.queries().get(2).params().get(0).distribution())
        .isEqualTo(Distribution.latest(0.99));
    assertThat(w.queries().get(2).tags()).isEmpty();
  }

  static Stream<Arguments> mistakes() {
    return Stream.of(
        Arguments.of(
            "sql and transaction",
            """
            queries:
              - name: t
                sql: select 1
                transaction: [select 1]
            """,
            "bad.yml:3:10 queries[0].sql: give sql or transaction, not both"),
        Arguments.of(
            "? in a transaction",
            """
            queries:
              - name: t
                params: [{type: integer}]
                transaction:
                  - select ?
            """,
            "bad.yml:5:9 queries[0].transaction[0]: a transaction's statements take $n"
                + " placeholders"),
        Arguments.of(
            "a placeholder past the params",
            """
            queries:
              - name: t
                params: [{type: integer}]
                transaction:
                  - select $1
                  - select $2
            """,
            "bad.yml:6:9 queries[0].transaction[1]: $2 but the query has 1 param"),
        Arguments.of(
            "a param no statement uses",
            """
            queries:
              - name: t
                params: [{type: integer}, {type: integer}]
                transaction:
                  - select $2
            """,
            "bad.yml:3:14 queries[0].params[0]: no statement of the transaction uses $1"),
        Arguments.of(
            "an empty transaction",
            """
            queries:
              - name: t
                transaction: []
            """,
            "bad.yml:3:18 queries[0].transaction: a transaction needs a statement"),
        Arguments.of(
            "a tag with a space",
            """
            queries:
              - sql: select 1
                tags: [lite, very full]
            """,
            "bad.yml:3:18 queries[0].tags[1]: a tag is letters, digits, - and _, got 'very"
                + " full'"),
        Arguments.of(
            "an array column",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - {name: id, type: integer, array: 3}
            """,
            "bad.yml:5:42 tables_schema[0].columns[0].array: array applies to query parameters"),
        Arguments.of(
            "an array size out of bounds",
            """
            queries:
              - sql: select $1::int[]
                params:
                  - {type: integer, array: [5, 20000]}
            """,
            "bad.yml:4:32 queries[0].params[0].array: array sizes must be within [0, 10000]"),
        Arguments.of(
            "repeat zero",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - {name: id, type: integer, repeat: 0}
            """,
            "bad.yml:5:43 tables_schema[0].columns[0].repeat: repeat must be >= 1, got 0"),
        Arguments.of(
            "a hot set over the whole range and more",
            """
            queries:
              - sql: select $1
                params:
                  - {type: integer, distribution: hotspot, distribution_param: 1.5}
            """,
            "bad.yml:4:68 queries[0].params[0].distribution_param: hotspot: the hot set's share"
                + " of the range must be in (0, 1], got 1.5"),
        Arguments.of(
            "nurand's C above A",
            """
            queries:
              - sql: select $1
                params:
                  - {type: integer, distribution: nurand, distribution_param: [255, 300]}
            """,
            "bad.yml:4:67 queries[0].params[0].distribution_param: nurand: C must be a whole"
                + " number in [0, A = 255], got 300.0"),
        Arguments.of(
            "two parameters for zipf",
            """
            queries:
              - sql: select $1
                params:
                  - {type: integer, distribution: zipf, distribution_param: [1, 2]}
            """,
            "bad.yml:4:65 queries[0].params[0].distribution_param: zipf takes one number, not a"
                + " list"),
        Arguments.of(
            "a generated column without a type",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - {name: id, type: integer}
                  - {name: twice, generated: id * 2}
            """,
            "bad.yml:6:9 tables_schema[0].columns[1].type: missing required field"),
        Arguments.of(
            "a generated column with a distribution",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - {name: id, type: integer}
                  - {name: twice, type: integer, generated: id * 2, distribution: zipf}
            """,
            "bad.yml:6:57 tables_schema[0].columns[1].distribution: unknown key 'distribution'"),
        Arguments.of(
            "a generated primary key",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - {name: id, type: integer, unique: true}
                  - {name: twice, type: integer, generated: id * 2}
                primary_keys: [twice]
            """,
            "bad.yml:7:20 tables_schema[0].primary_keys[0]: primary-key column 'twice' is"
                + " generated"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void eachMistakeIsReportedAtItsLineColumnAndField(String what, String yaml, String expected) {
    LoadResult result = WorkloadLoader.parse("bad.yml", yaml, Map.<String, String>of()::get);

    assertThat(result.isValid()).isFalse();
    assertThat(result.problems())
        .extracting(Problem::toString)
        .first()
        .asString()
        .startsWith(expected);
  }

  @Test
  void aUniqueColumnWithRepeatMayFillItsRangeTimesTheRepeat() {
    String yaml =
        """
        tables_schema:
          - name: lines
            row_count: %d
            columns:
              - {name: ticket, type: integer, range: [1, 100], unique: true, repeat: 10}
        """;
    assertThat(WorkloadLoader.parse("ok.yml", yaml.formatted(1000), k -> null).isValid()).isTrue();
    List<Problem> problems =
        WorkloadLoader.parse("bad.yml", yaml.formatted(1001), k -> null).problems();
    assertThat(problems)
        .extracting(Problem::toString)
        .containsExactly(
            "bad.yml:5:46 tables_schema[0].columns[0].range: unique range holds 100 values (1000"
                + " rows with repeat) but row_count is 1001");
  }

  @Test
  void aScaledBoundMayAddOrSubtractAWholeOffsetForTheKeysAfterTheLoadedOnes() {
    String yaml =
        """
        scale: 0.5
        tables_schema:
          - name: usertable
            row_count: 1_000 * scale
            columns:
              - {name: k, type: long, distribution: sequential, range: [1, 1_000 * scale], unique: true}
        queries:
          - sql: insert into usertable values ($1)
            params:
              - {type: long, distribution: sequential, range: [1_000 * scale + 1, 1_000 * scale - 1]}
        """;
    List<Problem> problems = WorkloadLoader.parse("w.yml", yaml, k -> null).problems();
    assertThat(problems)
        .extracting(Problem::toString)
        .containsExactly(
            "w.yml:10:55 queries[0].params[0].range: left bound 1_000 * scale + 1 is greater than"
                + " right bound 1_000 * scale - 1");
    Workload fixed =
        WorkloadLoader.parse("w.yml", yaml.replace("scale - 1]", "scale + 9]"), k -> null)
            .orThrow();
    assertThat(fixed.queries().get(0).params().get(0).lower()).isEqualTo(501L);
    assertThat(fixed.queries().get(0).params().get(0).upper()).isEqualTo(509L);
  }
}
