package io.fusillade.gen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The same seed gives the same values: in this JVM, in another JVM, and as pinned in git. */
class DeterminismTest {

  private static final String GOLDEN = "/golden/values-seed-20240601.txt";

  /**
   * Run with {@code -Dfusillade.updateGolden=true} after an intended change of the generated
   * values; the diff of the golden file then shows exactly what changed.
   */
  @Test
  void theFirstValuesOfEveryTypeAndDistributionMatchTheGoldenFile() throws IOException {
    String actual = GoldenSample.render();
    if (Boolean.getBoolean("fusillade.updateGolden")) {
      Path file = Path.of("src/test/resources" + GOLDEN);
      Files.createDirectories(file.getParent());
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    try (InputStream in = DeterminismTest.class.getResourceAsStream(GOLDEN)) {
      assertThat(in).as("golden file %s", GOLDEN).isNotNull();
      assertThat(actual).isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  @Tag("slow") // forks a JVM
  @Test
  void aSecondJvmProducesByteIdenticalOutput() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(GoldenSample.class.getName());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    process.getInputStream().transferTo(out);

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    assertThat(out.toByteArray()).isEqualTo(GoldenSample.render().getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void addingAColumnDoesNotChangeTheOthers() {
    ValueSpec id = ValueSpec.builder("id", ValueType.INTEGER).range(0L, 1000L).build();
    ValueSpec name = ValueSpec.builder("name", ValueType.STRING).range(0L, 1000L).build();
    ValueSpec extra = ValueSpec.builder("extra", ValueType.DOUBLE).build();
    RowGenerator narrow = RowGenerator.of("t", List.of(id, name), 5);
    RowGenerator wide = RowGenerator.of("t", List.of(extra, name, id), 5);

    for (int i = 0; i < 100; i++) {
      Object[] a = narrow.next();
      Object[] b = wide.next();
      assertThat(b[2]).isEqualTo(a[0]);
      assertThat(b[1]).isEqualTo(a[1]);
    }
  }

  @Test
  void differentSeedsTablesAndUsersGiveDifferentStreams() {
    ValueSpec v = ValueSpec.builder("v", ValueType.LONG).build();

    List<Object> base = take(RowGenerator.of("t", List.of(v), 1));
    assertThat(take(RowGenerator.of("t", List.of(v), 1))).isEqualTo(base);
    assertThat(take(RowGenerator.of("t", List.of(v), 2))).isNotEqualTo(base);
    assertThat(take(RowGenerator.of("u", List.of(v), 1))).isNotEqualTo(base);
    assertThat(take(RowGenerator.of("t", List.of(v), 1).forUser(1, 2))).isNotEqualTo(base);
    assertThat(take(RowGenerator.of("t", List.of(v), 1).forUser(1, 2)))
        .isEqualTo(take(RowGenerator.of("t", List.of(v), 1).forUser(1, 2)));
  }

  @Test
  void streamSeedsDoNotConfuseWhereTheDotIs() {
    assertThat(Seeds.stream(1, "a.b", "c")).isNotEqualTo(Seeds.stream(1, "a", "b.c"));
    assertThat(Seeds.hash("cars_q.id")).isEqualTo(Seeds.hash("cars_q.id"));
  }

  @Test
  void aVocabularyIsSharedByColumnsAndParametersOfTheSameShape() {
    ValueSpec column =
        ValueSpec.builder("brand", ValueType.STRING)
            .distribution(Distribution.sequential())
            .range(1L, 15L)
            .build();
    ValueSpec param = ValueSpec.builder("p2", ValueType.STRING).range(1L, 15L).build();
    List<Object> brands = take(RowGenerator.of("cars_q", List.of(column), 3));
    List<Object> params = take(RowGenerator.of("query1", List.of(param), 3));

    assertThat(brands).containsAll(params);
  }

  private static List<Object> take(RowGenerator rows) {
    List<Object> out = new ArrayList<>();
    Object[] row = new Object[rows.width()];
    for (int i = 0; i < 15; i++) {
      rows.next(row);
      out.add(row[0]);
    }
    return out;
  }
}
