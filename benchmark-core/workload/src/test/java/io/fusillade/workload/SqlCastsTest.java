package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.workload.SqlCasts.Cast;
import io.fusillade.workload.SqlCasts.Server;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The casts of a statement, the type names each dialect knows, and where a cast is in a file. */
class SqlCastsTest {
  private static List<String> types(String sql) {
    return SqlCasts.of(sql).stream().map(Cast::type).toList();
  }

  @Test
  void castsAreReadWithTheirWordsModifiersAndArraysOutsideLiteralsAndComments() {
    assertThat(
            types(
                "select $1::integer, $2 :: Double Precision, '::text'::varchar(10), $3::int[],"
                    + " x::timestamp with time zone -- ::nope\n/* ::nope */ , $$::nope$$, $4::bit"))
        .containsExactly(
            "integer", "double precision", "varchar", "int", "timestamp with time zone", "bit");
    Cast quoted = SqlCasts.of("select $1::\"Mood\"").get(0);
    assertThat(quoted.own()).isTrue();
    assertThat(SqlCasts.of("select $1::app.mood").get(0).own()).isTrue();
    // Picodata's double alone is not PostgreSQL's double precision
    assertThat(types("select $1::double, $2::string")).containsExactly("double", "string");
  }

  @Test
  void eachDialectKnowsItsOwnNames() {
    assertThat(SqlCasts.knows(Server.POSTGRESQL, "string")).isFalse();
    assertThat(SqlCasts.knows(Server.PICODATA, "string")).isTrue();
    assertThat(SqlCasts.knows(Server.POSTGRESQL, "timestamptz")).isTrue();
    assertThat(SqlCasts.knows(Server.PICODATA, "datetime")).isTrue();
    assertThat(SqlCasts.instead(Server.POSTGRESQL, "datetime"))
        .containsExactly("timestamptz", "timestamp");
    assertThat(SqlCasts.instead(Server.POSTGRESQL, "integr")).containsExactly("integer");
    assertThat(SqlCasts.closestAnywhere("strng")).containsExactly("string");
    assertThat(SqlCasts.closestAnywhere("mood")).isEmpty();
  }

  @Test
  void picodatasStringIsSentAsText() {
    assertThat(SqlCasts.adapt("select * from t where a = $1::String and b = '::string'"))
        .isEqualTo("select * from t where a = $1::text and b = '::string'");
    assertThat(SqlCasts.adapt("select $1::integer")).isEqualTo("select $1::integer");
  }

  @Test
  void aCastIsLocatedAtItsLineAndColumnInTheFile() {
    String file =
        """
        queries:
          - sql: |
              select $1::integer,
                     $2::string, $3::string
        """;
    String sql = "select $1::integer,\n       $2::string, $3::string\n";
    Location start = new Location("f.yml", 3, 7);
    List<Cast> casts = SqlCasts.of(sql);
    assertThat(SqlCasts.locate(file, start, sql, casts.get(1)))
        .isEqualTo(new Location("f.yml", 4, 18));
    assertThat(SqlCasts.locate(file, start, sql, casts.get(2)))
        .isEqualTo(new Location("f.yml", 4, 30));
    assertThat(SqlCasts.locate(null, start, sql, casts.get(2))).isEqualTo(start);
  }
}
