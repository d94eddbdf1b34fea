package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;

class FreePortsTest {
  @Test
  void portsAreDistinctFreeAndBelowTheEphemeralRange() throws Exception {
    int ephemeral = FreePorts.ephemeralStart();
    List<Integer> ports = FreePorts.of(6);

    assertThat(ports).hasSize(6).doesNotHaveDuplicates();
    assertThat(ports).allSatisfy(p -> assertThat(p).isBetween(FreePorts.LOWEST, ephemeral - 1));
    for (int port : ports) {
      try (ServerSocket socket = new ServerSocket()) {
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        assertThat(socket.getLocalPort()).isEqualTo(port);
      }
    }
  }

  @Test
  void aPortTakenIsNeverChosen() throws Exception {
    // a range of three ports, one of them held: the other two are the only answer
    int ephemeral = FreePorts.LOWEST + 3;
    try (ServerSocket held = new ServerSocket()) {
      held.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), FreePorts.LOWEST + 1));
      assertThat(FreePorts.of(2, ephemeral))
          .containsExactlyInAnyOrder(FreePorts.LOWEST, FreePorts.LOWEST + 2);
    }
  }
}
