package io.fusillade.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import org.junit.jupiter.api.Test;

/** How {@code -Dfusillade.servers} chooses, and what it says when it cannot. */
class ServersTest {

  @Test
  void embeddedIsTheDefault() {
    assertThat(Servers.kind(null)).isEqualTo(Servers.Kind.EMBEDDED);
    assertThat(Servers.kind(" ")).isEqualTo(Servers.Kind.EMBEDDED);
  }

  @Test
  void theKindIsReadWhateverItsCase() {
    assertThat(Servers.kind("Containers")).isEqualTo(Servers.Kind.CONTAINERS);
    assertThat(Servers.kind(" embedded ")).isEqualTo(Servers.Kind.EMBEDDED);
  }

  @Test
  void anUnknownKindNamesThePropertyAndTheChoices() {
    assertThatThrownBy(() -> Servers.kind("docker"))
        .isInstanceOf(ServersException.class)
        .hasMessage(
            "-Dfusillade.servers=docker is not a kind of servers: use embedded (the default) or"
                + " containers");
  }

  @Test
  void anEmbeddedReplicaIsRefusedBeforeAnythingStarts() {
    assertThatThrownBy(() -> Servers.postgres(Servers.Kind.EMBEDDED, 1))
        .isInstanceOf(ServersException.class)
        .hasMessage(
            "a PostgreSQL streaming replica runs in containers only: set"
                + " -Dfusillade.servers=containers");
  }

  @Test
  void aClusterWithoutBrokersIsRefused() {
    assertThatThrownBy(() -> Servers.kafka(Servers.Kind.EMBEDDED, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one broker");
  }

  @Test
  void containersWithoutADockerEngineSayWhatToDoInsteadOfAStackTrace() {
    assumeFalse(Docker.available(), "a Docker engine answers here");
    for (Runnable start :
        new Runnable[] {
          () -> Servers.postgres(Servers.Kind.CONTAINERS, 0),
          () -> Servers.kafka(Servers.Kind.CONTAINERS, 3),
          () -> Servers.openSearch(Servers.Kind.CONTAINERS)
        }) {
      assertThatThrownBy(start::run)
          .isInstanceOf(ServersException.class)
          .hasMessageStartingWith("-Dfusillade.servers=containers needs a Docker engine")
          .hasMessageEndingWith("leave the property out to use the embedded servers");
    }
  }
}
