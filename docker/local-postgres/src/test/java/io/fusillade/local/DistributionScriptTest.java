package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The embedded PostgreSQL's library leaves no {@code detect_linux_distribution_*.sh} in the
 * temporary directory, even in a JVM that ends without its exit hooks (every run's Gatling JVM).
 */
// Alone, after this module's parallel tests: it looks for any embedded server's temporary file in
// the machine's temporary directory (see the surefire configuration).
@Tag("exclusive")
class DistributionScriptTest {
  @Test
  void theScriptTheLibraryWritesIsRemovedOnceItRan() throws Exception {
    Path temp = Path.of(System.getProperty("java.io.tmpdir"));
    Instant before = Instant.now().minusSeconds(1);
    DistributionScript.settle();
    // A script left behind stays; one that another JVM's library runs right now (another module's
    // tests, built beside this one) is gone within moments: looked at again for up to 3 s.
    List<Path> left = scriptsSince(temp, before);
    for (int i = 0; i < 30 && !left.isEmpty(); i++) {
      Thread.sleep(100);
      left = scriptsSince(temp, before);
    }
    assertThat(left).isEmpty();
    assertThat(io.zonky.test.db.postgres.util.LinuxUtils.getDistributionName())
        .as("the library ran it")
        .isNotBlank();
  }

  private static List<Path> scriptsSince(Path temp, Instant before) throws java.io.IOException {
    try (Stream<Path> files = Files.list(temp)) {
      return files
          .filter(p -> p.getFileName().toString().startsWith("detect_linux_distribution_"))
          .filter(p -> modified(p).toInstant().isAfter(before))
          .toList();
    }
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (java.io.IOException gone) {
      return FileTime.fromMillis(0);
    }
  }
}
