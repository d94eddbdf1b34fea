package io.fusillade.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What of a server's settings may go into run.json, which is published with the reports. */
class ServerIdentityTest {

  @Test
  void aPasswordInAConnectionStringIsHidden() {
    assertThat(
            ServerIdentity.withoutPassword(
                "host=primary port=5432 user=replicator password=s3cr3t application_name=r1"))
        .isEqualTo("host=primary port=5432 user=replicator password=*** application_name=r1");
    assertThat(ServerIdentity.withoutPassword("user=r PASSWORD = 'two words' sslmode=require"))
        .isEqualTo("user=r PASSWORD = *** sslmode=require");
  }

  @Test
  void anOrdinarySettingIsKeptAsItIs() {
    assertThat(ServerIdentity.withoutPassword("4096")).isEqualTo("4096");
    assertThat(ServerIdentity.withoutPassword("scram-sha-256")).isEqualTo("scram-sha-256");
  }
}
