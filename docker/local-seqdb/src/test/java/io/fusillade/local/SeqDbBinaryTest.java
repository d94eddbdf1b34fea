package io.fusillade.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the seq-db binary is looked for, in order, and what is said when it is nowhere. */
class SeqDbBinaryTest {
  @TempDir Path dir;

  private Path executable(String name) throws Exception {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "#!/bin/sh\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    return file;
  }

  /** An environment whose build cache is empty: nothing is found unless given. */
  private Map<String, String> env(String... pairs) {
    java.util.Map<String, String> env = new java.util.HashMap<>();
    env.put("FUSILLADE_SEQDB_HOME", dir.resolve("no-cache").toString());
    env.put("PATH", "");
    for (int i = 0; i < pairs.length; i += 2) {
      env.put(pairs[i], pairs[i + 1]);
    }
    return env;
  }

  @Test
  void aGivenPathComesFirstThenTheVariableThenThePathThenTheBuildCache() throws Exception {
    Path given = executable("given/seq-db");
    Path variable = executable("variable/seq-db");
    Path onPath = executable("bin/seq-db");
    Path cached = executable("cache/seq-db");
    Map<String, String> all =
        env(
            SeqDbBinary.ENV,
            variable.toString(),
            "PATH",
            onPath.getParent().toString(),
            "FUSILLADE_SEQDB_HOME",
            cached.getParent().toString());

    assertThat(SeqDbBinary.find(given.toString(), all)).contains(given);
    assertThat(SeqDbBinary.find(null, all)).contains(variable);
    all.remove(SeqDbBinary.ENV);
    assertThat(SeqDbBinary.find(null, all)).contains(onPath);
    all.put("PATH", "/nowhere");
    assertThat(SeqDbBinary.find(null, all)).contains(cached);
  }

  @Test
  void nothingFoundIsEmptyAndTheMessageSaysHowToBuildIt() {
    assertThat(SeqDbBinary.find(null, env())).isEmpty();
    assertThat(SeqDbBinary.HOW_TO_BUILD)
        .contains("../shared/seq-db/build.sh", "--seqdb-binary", SeqDbBinary.ENV)
        .doesNotContain("\n");
  }

  @Test
  void aGivenPathThatIsNoExecutableIsAnErrorNotPassedOver() {
    String missing = dir.resolve("missing").toString();
    assertThatThrownBy(() -> SeqDbBinary.find(null, env(SeqDbBinary.ENV, missing)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith(SeqDbBinary.ENV + " " + missing + " is not an executable file");
    assertThatThrownBy(() -> SeqDbBinary.find(missing, env()))
        .hasMessageStartingWith("--seqdb-binary " + missing);
  }
}
