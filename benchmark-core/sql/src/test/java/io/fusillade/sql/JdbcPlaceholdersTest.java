package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcPlaceholdersTest {
  @Test
  void numberedPlaceholdersBecomeQuestionMarksBoundInTheirOrder() {
    SqlPlaceholders.Jdbc jdbc =
        SqlPlaceholders.toJdbc("select * from t where b = $2::text and a = $1 and c = $2");
    assertThat(jdbc.sql()).isEqualTo("select * from t where b = ?::text and a = ? and c = ?");
    assertThat(jdbc.order()).containsExactly(1, 0, 1);
    assertThat(jdbc.bind(new Object[] {"A", "B"})).containsExactly("B", "A", "B");
  }

  @Test
  void literalsCommentsAndDollarQuotesAreLeftAlone() {
    String sql = "select '$1 ?', \"?col\", $$ $1 $$ -- $1 ?\n from t where x = ? /* $2 */";
    SqlPlaceholders.Jdbc jdbc = SqlPlaceholders.toJdbc(sql);
    assertThat(jdbc.sql()).isEqualTo(sql);
    assertThat(jdbc.order()).containsExactly(0);
  }

  @Test
  void questionMarksBecomeNumberedForPostgresProtocolInOrder() {
    String jdbc = SqlPlaceholders.toJdbc("select * from t where b = $2::text and a = $1").sql();
    assertThat(SqlPlaceholders.toNumbered(jdbc))
        .isEqualTo("select * from t where b = $1::text and a = $2");
    String sql = "select '?', \"?col\", $$ ? $$ -- ?\n from t where x = ? and y = ? /* ? */";
    assertThat(SqlPlaceholders.toNumbered(sql))
        .isEqualTo("select '?', \"?col\", $$ ? $$ -- ?\n from t where x = $1 and y = $2 /* ? */");
  }
}
