package io.fusillade.workload;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.workload.CastReview.Finding;
import io.fusillade.workload.CastReview.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A workload's casts judged for the server its queries go to: the Picostress example runs as
 * written on PostgreSQL, another dialect's type PostgreSQL lacks is refused (or noted when the
 * server may be Picodata), a misspelt type is a problem of the file.
 */
class CastReviewTest {
  @TempDir Path dir;

  private Path file(String sql) throws Exception {
    Path file = dir.resolve("casts.yml");
    Files.writeString(
        file,
        """
        tables_schema:
          - name: t
            row_count: 10
            columns:
              - {name: id, type: integer, range: [1, 10]}
        queries:
          - sql: %s
            params: [{type: integer, range: [1, 10]}]
        """
            .formatted(sql));
    return file;
  }

  private static List<Finding> review(Path file, Target target) throws Exception {
    Workload workload = WorkloadLoader.load(file, name -> null).orThrow();
    return CastReview.of(workload, target, Files.readString(file));
  }

  @Test
  void thePicostressExampleIsSentWithTextAndSaysSoAtTheCast() throws Exception {
    Path file = PicostressExampleTest.fixture("picostress-queue.yml");
    List<Finding> findings = review(file, Target.EMBEDDED);
    assertThat(findings).singleElement().satisfies(f -> assertThat(f.problem()).isFalse());
    assertThat(findings.get(0).toString())
        .isEqualTo(
            "note: "
                + file
                + ":53:70 queries[0].sql: ::string is Picodata's name for text: sent as ::text,"
                + " the same type on every server that speaks PostgreSQL's protocol");
    assertThat(review(file, Target.POSTGRES_PROTOCOL)).hasSize(1);
    assertThat(review(file, Target.PICODATA)).as("Picodata's own name").isEmpty();
    assertThat(review(file, Target.OTHER)).isEmpty();

    Workload workload = WorkloadLoader.load(file, name -> null).orThrow();
    assertThat(CastReview.adapt(workload, Target.EMBEDDED).queries().get(0).sql())
        .contains("$2::text and")
        .doesNotContain("string");
    assertThat(CastReview.adapt(workload, Target.PICODATA)).isSameAs(workload);
  }

  @Test
  void aPicodataTypePostgresqlLacksIsRefusedWhereTheServerIsPostgresqlWithWhatToWrite()
      throws Exception {
    Path file = file("select id from t where id = $1::unsigned");
    assertThat(review(file, Target.EMBEDDED))
        .singleElement()
        .hasToString(
            file
                + ":7:42 queries[0].sql: PostgreSQL has no type unsigned (it is Picodata's):"
                + " write bigint or numeric for PostgreSQL");
    assertThat(review(file, Target.POSTGRESQL)).singleElement().matches(Finding::problem);
    // a jdbc:postgresql: URL not asked may be Picodata: a note, and --url asks the server
    assertThat(review(file, Target.POSTGRES_PROTOCOL))
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.problem()).isFalse();
              assertThat(f.message()).endsWith("('workload check --url URL' asks the server)");
            });
    assertThat(review(file, Target.PICODATA)).isEmpty();
  }

  @Test
  void aMisspeltTypeIsAProblemOfTheFileWithWhatItMayHaveMeant() throws Exception {
    LoadResult result =
        WorkloadLoader.load(file("select id from t where id = $1::integr"), name -> null);
    assertThat(result.problems())
        .singleElement()
        .asString()
        .endsWith(
            ":7:42 queries[0].sql: no SQL type integr in the cast ::integr; did you mean integer?"
                + " (a type of your own whose name is close to a built-in one: quote it,"
                + " ::\"integr\")");
    assertThat(
            WorkloadLoader.load(file("select id from t where id = $1::\"integr\""), n -> null)
                .problems())
        .isEmpty();
  }

  @Test
  void aTypeOfNoDialectIsRefusedOnlyOnTheEmbeddedServer() throws Exception {
    Path file = file("select id from t where id = $1::mood");
    assertThat(review(file, Target.EMBEDDED))
        .singleElement()
        .satisfies(
            f ->
                assertThat(f.message())
                    .isEqualTo(
                        "PostgreSQL has no built-in type mood, and the embedded server holds no"
                            + " type of yours"));
    assertThat(review(file, Target.POSTGRESQL)).as("a type of the server's schema").isEmpty();
    assertThat(review(file, Target.POSTGRES_PROTOCOL)).isEmpty();
  }

  @Test
  void theTargetIsTheEmbeddedServerWithoutAUrl() {
    assertThat(Target.of(List.of())).isEqualTo(Target.EMBEDDED);
    assertThat(Target.of(List.of("jdbc:postgresql://db:5432/app")))
        .isEqualTo(Target.POSTGRES_PROTOCOL);
    assertThat(Target.of(List.of("jdbc:mysql://db/app"))).isEqualTo(Target.OTHER);
  }
}
