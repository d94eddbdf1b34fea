package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each broken workload gets its own message naming file, line, column and field. {@code workload
 * check} prints it and exits 2, without a stack trace.
 */
class BrokenWorkloadsTest {

  private static final Map<String, String> ENVIRONMENT = Map.of("DB_URL", "jdbc:postgresql://db/x");

  @TempDir Path dir;

  static Stream<Arguments> brokenWorkloads() {
    return Stream.of(
        broken(
            "not YAML at all",
            """
            tables_schema: [
              - name: x
            """,
            "broken.yml:2:3: not valid YAML: "),
        broken(
            "a list at the top",
            """
            - a
            - b
            """,
            "broken.yml:1:1: a workload must be a YAML mapping (config_name, tables_schema,"
                + " indexes, queries), got a list"),
        broken("an empty file", "", "broken.yml:1:1: the file is empty"),
        broken(
            "a misspelt top-level key",
            """
            config_name: x
            tables_shema: []
            """,
            "broken.yml:2:1 tables_shema: unknown key 'tables_shema'; did you mean 'tables_schema'?"),
        broken(
            "a misspelt column key",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: integer
                    distributon: uniform
            """,
            "broken.yml:7:9 tables_schema[0].columns[0].distributon: unknown key 'distributon';"
                + " did you mean 'distribution'?"),
        broken(
            "an unknown type",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: Integr
            """,
            "broken.yml:6:15 tables_schema[0].columns[0].type: unknown type 'Integr'; did you mean"
                + " 'integer'?"),
        broken(
            "an unknown distribution",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: integer
                    distribution: Zipfian
            """,
            "broken.yml:7:23 tables_schema[0].columns[0].distribution: unknown distribution"
                + " 'Zipfian'; did you mean 'zipf'?"),
        broken(
            "bounds in the wrong order",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: integer
                  - name: price
                    type: integer
                    range: [20, 10]
            """,
            "broken.yml:9:16 tables_schema[0].columns[1].range: left bound 20 is greater than right"
                + " bound 10"),
        broken(
            "a unique range smaller than the row count",
            """
            tables_schema:
              - name: t
                row_count: 100
                columns:
                  - name: id
                    type: integer
                    range: [0, 10]
                    unique: true
            """,
            "broken.yml:7:16 tables_schema[0].columns[0].range: unique range holds 11 values but"
                + " row_count is 100"),
        broken(
            "a normal range whose sum overflows",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: big
                    type: integer
                    distribution: normal
                    range: [2000000000, 2100000000]
            """,
            "broken.yml:8:16 tables_schema[0].columns[0].range: normal distribution: left + right"
                + " bound (2000000000 + 2100000000) overflows integer"),
        broken(
            "a primary key that is not unique",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: integer
                primary_keys: [id]
            """,
            "broken.yml:7:20 tables_schema[0].primary_keys[0]: primary-key column 'id' must be"
                + " unique (add unique: true)"),
        broken(
            "a primary key that is not a column",
            """
            tables_schema:
              - name: t
                row_count: 10
                columns:
                  - name: id
                    type: integer
                    unique: true
                primary_keys: [idd]
            """,
            "broken.yml:8:20 tables_schema[0].primary_keys[0]: primary key 'idd' is not a column of"
                + " t; did you mean 'id'?"),
        broken(
            "fewer params than placeholders",
            """
            queries:
              - sql: select * from t where id = $1 and name = $2
                params:
                  - type: integer
                count: 5
            """,
            "broken.yml:4:7 queries[0].params: the SQL has 2 placeholders ($1..$2) but 1 param is"
                + " given"),
        broken(
            "params for a statement without placeholders",
            """
            queries:
              - sql: select 'is it ?' from t -- really?
                params:
                  - type: integer
            """,
            "broken.yml:4:7 queries[0].params: the SQL has 0 placeholders but 1 param is given"),
        broken(
            "text where a number belongs",
            """
            tables_schema:
              - name: t
                row_count: many
                columns:
                  - name: id
                    type: integer
            """,
            "broken.yml:3:16 tables_schema[0].row_count: expected an integer, got the string"
                + " \"many\""),
        broken(
            "a range that is not a pair",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: long
                    range: 5
            """,
            "broken.yml:7:16 tables_schema[0].columns[0].range: expected [left, right], got the"
                + " integer 5"),
        broken(
            "a column without a type",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
            """,
            "broken.yml:5:9 tables_schema[0].columns[0].type: missing required field"),
        broken(
            "a duplicate column",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: integer
                  - name: id
                    type: long
            """,
            "broken.yml:7:15 tables_schema[0].columns[1].name: duplicate column 'id' (first at"
                + " line 5)"),
        broken(
            "nulls in a column that is not nullable",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: note
                    type: string
                    is_nullable: false
                    null_percentage: 10
            """,
            "broken.yml:8:26 tables_schema[0].columns[0].null_percentage: null_percentage is 10 but"
                + " is_nullable is not true"),
        broken(
            "a bound outside the 32-bit integers",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: integer
                    range: [0, 3000000000]
            """,
            "broken.yml:7:20 tables_schema[0].columns[0].range[1]: bound 3000000000 does not fit"
                + " integer (32 bits); use type long"),
        broken(
            "a datetime that is not ISO",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: at
                    type: datetime
                    range: ['21/10/2015', '2015-10-22T00:00:00Z']
            """,
            "broken.yml:7:17 tables_schema[0].columns[0].range[0]: expected an ISO-8601 datetime"
                + " such as 2015-10-21T07:28:00Z, got the string \"21/10/2015\""),
        broken(
            "a zipf exponent of zero",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: integer
                    distribution: zipf
                    distribution_param: 0
            """,
            "broken.yml:8:29 tables_schema[0].columns[0].distribution_param: zipf exponent must be"
                + " > 0, got 0.0"),
        broken(
            "an index on an unknown table",
            """
            tables_schema:
              - name: cars
                row_count: 1
                columns:
                  - name: id
                    type: integer
            indexes:
              - name: by_id
                table_name: carz
                columns_names: [id]
            """,
            "broken.yml:9:17 indexes[0].table_name: no table 'carz' in tables_schema; did you mean"
                + " 'cars'?"),
        broken(
            "an index on an unknown column",
            """
            tables_schema:
              - name: cars
                row_count: 1
                columns:
                  - name: brand
                    type: string
            indexes:
              - name: by_brand
                table_name: cars
                columns_names: [brnad]
            """,
            "broken.yml:10:21 indexes[0].columns_names[0]: 'brnad' is not a column of cars; did you"
                + " mean 'brand'?"),
        broken(
            "an unset environment variable",
            """
            connection:
              url: ${env:DB_URL}
              user: ${env:DB_USER}
            queries:
              - sql: select 1
            """,
            "broken.yml:3:9 connection.user: environment variable DB_USER is not set"),
        broken(
            "a password written in the file",
            """
            connection:
              url: ${env:DB_URL}
              password: hunter2
            queries:
              - sql: select 1
            """,
            "broken.yml:3:13 connection.password: a password must not be written in the file; use"
                + " ${env:NAME}"),
        broken(
            "a duplicate key",
            """
            queries:
              - sql: select 1
                count: 1
                count: 2
            """,
            "broken.yml:4:5: duplicate key 'count' (first at line 3)"),
        broken(
            "weights that do not match the values",
            """
            queries:
              - sql: select ?
                params:
                  - type: choice
                    values: [a, b, c]
                    weights: [1, 2]
            """,
            "broken.yml:6:18 queries[0].params[0].weights: 2 weights for 3 values; give one per"
                + " value"),
        broken(
            "an unknown alphabet",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: s
                    type: string
                    alphabet: [eng]
            """,
            "broken.yml:7:20 tables_schema[0].columns[0].alphabet[0]: unknown alphabet 'eng'; did"
                + " you mean 'en'?"),
        broken(
            "zipf over doubles",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: x
                    type: double
                    distribution: zipf
            """,
            "broken.yml:7:23 tables_schema[0].columns[0].distribution: zipf needs a discrete type;"
                + " double is continuous"),
        broken(
            "a string length range upside down",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: s
                    type: string
                    length: [10, 2]
            """,
            "broken.yml:7:17 tables_schema[0].columns[0].length: minimum length 10 is greater than"
                + " maximum length 2"),
        broken(
            "a constant without a value",
            """
            queries:
              - sql: select $1
                params:
                  - type: Constant
            """,
            "broken.yml:4:9 queries[0].params[0].value: a constant needs a value"),
        broken(
            "a mixture of placeholder styles",
            """
            queries:
              - sql: select $1, ?
                params:
                  - type: integer
                  - type: integer
            """,
            "broken.yml:2:10 queries[0].sql: the SQL mixes $n and ? placeholders"),
        broken(
            "a boolean where true or false belongs",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: id
                    type: integer
                    unique: yes please
            """,
            "broken.yml:7:17 tables_schema[0].columns[0].unique: expected true or false, got the"
                + " string \"yes please\""),
        broken(
            "a decimal bound with too many digits",
            """
            tables_schema:
              - name: t
                row_count: 1
                columns:
                  - name: price
                    type: decimal
                    precision: 5
                    scale: 2
                    range: [0, 1000.5]
            """,
            "broken.yml:9:20 tables_schema[0].columns[0].range[1]: bound 1000.5 does not fit"
                + " decimal(5, 2)"));
  }

  private static Arguments broken(String what, String yaml, String expected) {
    return Arguments.of(what, yaml, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenWorkloads")
  void eachBrokenWorkloadGetsItsOwnLocatedMessage(String what, String yaml, String expected) {
    LoadResult result = WorkloadLoader.parse("broken.yml", yaml, ENVIRONMENT::get);

    assertThat(result.isValid()).isFalse();
    assertThat(result.problems()).isNotEmpty();
    assertThat(result.problems().get(0).toString()).startsWith(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenWorkloads")
  void checkPrintsTheProblemAndExitsTwoWithoutAStackTrace(String what, String yaml, String expected)
      throws IOException {
    Path file = dir.resolve("broken.yml");
    Files.writeString(file, yaml, StandardCharsets.UTF_8);
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int exit =
        WorkloadCommands.check(
            file, null, ENVIRONMENT::get, new PrintWriter(out), new PrintWriter(err));

    assertThat(exit).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .contains(expected.replace("broken.yml", file.toString()))
        .contains("found in " + file)
        .doesNotContain("Exception")
        .doesNotContain("\tat ");
  }
}
