package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JdbcUrlsTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://h/db?user=u&password=pw|jdbc:postgresql://h/db?user=u&password=***",
        "jdbc:postgresql://h/db?PASSWORD=pw&ssl=true|jdbc:postgresql://h/db?PASSWORD=***&ssl=true",
        "jdbc:mysql://u:pw@h:3306/db|jdbc:mysql://u:***@h:3306/db",
        "jdbc:sqlserver://h;user=u;password=pw;db=x|jdbc:sqlserver://h;user=u;password=***;db=x",
        "jdbc:postgresql://h:5432/db|jdbc:postgresql://h:5432/db"
      })
  void passwordsAreMasked(String url, String masked) {
    assertThat(JdbcUrls.mask(url)).isEqualTo(masked);
  }
}
