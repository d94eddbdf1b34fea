package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The embedded servers' JVMs take the options of {@value ChildJvm#OPTIONS_ENV}. */
class ChildJvmTest {
  @Test
  void optionsAreSplitOnWhitespaceAndNoneWhenUnsetOrBlank() {
    assertThat(ChildJvm.parse(null)).isEmpty();
    assertThat(ChildJvm.parse(" \t")).isEmpty();
    assertThat(ChildJvm.parse(" -XX:TieredStopAtLevel=1  -Xlog:gc\n"))
        .containsExactly("-XX:TieredStopAtLevel=1", "-Xlog:gc");
  }
}
