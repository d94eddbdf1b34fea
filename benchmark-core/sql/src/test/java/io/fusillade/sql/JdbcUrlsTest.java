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

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      nullValues = "null",
      value = {
        "jdbc:postgresql://127.0.0.1:5432/app?user=u&password=pw|127.0.0.1:5432",
        "jdbc:postgresql://db1/app|db1:5432",
        "jdbc:postgresql://u:pw@db1:6432/app|db1:6432",
        "jdbc:postgresql://[::1]:5433/app|[::1]:5433",
        "jdbc:mysql://h|h:3306",
        "jdbc:sqlserver://h:1500;databaseName=x|h:1500",
        "jdbc:postgresql://h1:5432,h2:5432/app|null",
        "jdbc:h2:mem:test|null",
        "jdbc:oracle:thin:@h:1521:x|null",
        "jdbc:other://h/x|null"
      })
  void theNodeOfAUrlIsItsHostAndPortWithoutCredentials(String url, String hostPort) {
    assertThat(JdbcUrls.hostPort(url)).isEqualTo(hostPort);
  }
}
