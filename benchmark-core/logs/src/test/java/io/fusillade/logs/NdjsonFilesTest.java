package io.fusillade.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Replaying NDJSON files: which files a pattern names, and document i is line i, wrapping. */
class NdjsonFilesTest {
  @TempDir Path dir;

  private void write(String name, String text) throws Exception {
    Files.writeString(dir.resolve(name), text);
  }

  private void gzip(String name, String text) throws Exception {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(dir.resolve(name)))) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String document(NdjsonFiles files, long index) {
    JsonBuffer out = new JsonBuffer();
    files.write(index, out);
    return out.toString();
  }

  @Test
  void aDirectoryReplaysItsFilesInNameOrderGzippedOrNotLineByLine() throws Exception {
    write("a.ndjson", "{\"n\":1}\n\n{\"n\":2}\r\n");
    gzip("b.ndjson.gz", "{\"n\":3}\n{\"n\":4}");
    write("notes.txt", "not a log");
    try (NdjsonFiles files = NdjsonFiles.open(dir.toString())) {
      assertThat(files.documents()).isEqualTo(4);
      assertThat(document(files, 0)).isEqualTo("{\"n\":1}");
      assertThat(document(files, 1)).as("blank lines skipped, CRLF cut").isEqualTo("{\"n\":2}");
      assertThat(document(files, 3)).isEqualTo("{\"n\":4}");
      assertThat(document(files, 5))
          .as("more documents than lines start over")
          .isEqualTo("{\"n\":2}");
    }
  }

  @Test
  void aGlobNamesItsMatchesAndNothingElse() throws Exception {
    write("day1.ndjson", "{\"d\":1}\n");
    write("day2.ndjson", "{\"d\":2}\n");
    write("other.json", "{\"d\":3}\n");
    assertThat(NdjsonFiles.files(dir.resolve("day*.ndjson").toString()))
        .extracting(p -> p.getFileName().toString())
        .containsExactly("day1.ndjson", "day2.ndjson");
    try (NdjsonFiles files = NdjsonFiles.open(dir.resolve("day*.ndjson").toString())) {
      assertThat(files.documents()).isEqualTo(2);
    }
  }

  @Test
  void aLineThatIsNotAnObjectIsNamedByFileAndLine() throws Exception {
    write("bad.ndjson", "{\"ok\":1}\nnot json\n");
    java.util.Set<Path> before = spills();
    assertThatThrownBy(() -> NdjsonFiles.open(dir.resolve("bad.ndjson").toString()))
        .hasMessageEndingWith("bad.ndjson:2: not a JSON object (an NDJSON line starts with {)");
    assertThat(spills()).as("a failed open leaves no spill file").isSubsetOf(before);
    assertThatThrownBy(() -> NdjsonFiles.open(dir.resolve("none-*.ndjson").toString()))
        .hasMessageContaining("names no file");
  }

  private static java.util.Set<Path> spills() throws Exception {
    try (var list = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      return list.filter(p -> p.getFileName().toString().startsWith("fusillade-replay-"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }
}
