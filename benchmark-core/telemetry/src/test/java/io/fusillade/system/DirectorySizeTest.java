package io.fusillade.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A local server's data on disk, as a gauge. */
class DirectorySizeTest {
  @TempDir Path dir;

  @Test
  void countsTheFilesOfEveryDirectoryOrOnlyThoseWithTheSuffix() throws Exception {
    Path a = Files.createDirectories(dir.resolve("broker-0/topic-0"));
    Path b = Files.createDirectories(dir.resolve("broker-1/topic-0"));
    Files.write(a.resolve("00000.log"), new byte[1000]);
    Files.write(a.resolve("00000.index"), new byte[300]);
    Files.write(b.resolve("00000.log"), new byte[500]);
    List<Path> brokers = List.of(dir.resolve("broker-0"), dir.resolve("broker-1"));
    assertThat(new DirectorySize(brokers, ".log").getAsDouble()).isEqualTo(1500.0);
    assertThat(new DirectorySize(brokers, "").getAsDouble()).isEqualTo(1800.0);
    Files.delete(a.resolve("00000.log"));
    assertThat(new DirectorySize(brokers, ".log").getAsDouble()).isEqualTo(500.0);
  }

  @Test
  void noDirectoryToReadGivesNoValueAndLabelsAreChecked() {
    assertThat(new DirectorySize(List.of(dir.resolve("gone")), "").getAsDouble()).isNaN();
    assertThat(DirectorySize.gauge("kafka")).isEqualTo("directory.kafka.bytes");
    assertThatThrownBy(() -> DirectorySize.gauge("a.b")).hasMessageContaining("letters, digits");
  }
}
