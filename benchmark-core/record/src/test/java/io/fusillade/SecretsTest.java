package io.fusillade;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SecretsTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "jdbc:postgresql://h/db?user=u&password=pw|jdbc:postgresql://h/db?user=u&password=***",
        "jdbc:postgresql://h/db?PASSWORD=pw&ssl=true|jdbc:postgresql://h/db?PASSWORD=***&ssl=true",
        "jdbc:mysql://u:pw@h:3306/db|jdbc:mysql://u:***@h:3306/db",
        "jdbc:sqlserver://h;user=u;password=pw;db=x|jdbc:sqlserver://h;user=u;password=***;db=x",
        "http://host:8086/write?db=x&u=admin&p=s3cret|http://host:8086/write?db=x&u=admin&p=***",
        "http://h/api/v2/write?org=o&bucket=b&token=abc|http://h/api/v2/write?org=o&bucket=b&token=***",
        "https://elastic:changeme@es:9200|https://elastic:***@es:9200",
        "http://h/x?apikey=k#frag|http://h/x?apikey=***#frag",
        "jdbc:postgresql://h:5432/db|jdbc:postgresql://h:5432/db",
        "http://h/write?db=p&precision=s|http://h/write?db=p&precision=s"
      })
  void everyPasswordAndTokenIsHidden(String url, String masked) {
    assertThat(Secrets.mask(url)).isEqualTo(masked);
    assertThat(Secrets.holdsSecret(url)).isEqualTo(!url.equals(masked));
  }
}
