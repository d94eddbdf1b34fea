package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CI pipelines of src/site/jenkins.md (the top-level {@code Jenkinsfile} and {@code
 * .github/workflows/fusillade.yml}) call only commands and options that exist: each {@code
 * ./fusillade} command line is read from the file and checked against the command's {@code --help}.
 * The other tests show that a misspelt option or command, or a line the reader cannot follow,
 * fails.
 */
class PipelineCommandsTest {
  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  @ParameterizedTest
  @ValueSource(strings = {"Jenkinsfile", ".github/workflows/fusillade.yml"})
  void everyCommandAndOptionOfThePipelineExists(String file) throws IOException {
    List<String> unreadable = new ArrayList<>();
    List<PipelineInvocations.Invocation> invocations =
        PipelineInvocations.of(Files.readString(ROOT.resolve(file)), unreadable);
    assertThat(unreadable).as("%s: command lines that cannot be read", file).isEmpty();
    // What the pipeline is for: were none found, the check below would pass on nothing.
    assertThat(invocations)
        .as("%s's fusillade commands", file)
        .extracting(i -> i.words().get(0))
        .contains("run", "report", "intervals", "compare");
    assertThat(PipelineCommands.problems(invocations)).as("%s", file).isEmpty();
  }

  /** The workload both pipelines run by default exists and is valid (its checks included). */
  @Test
  void theDefaultWorkloadIsValid() throws IOException {
    String workload = "workloads/accounts.yml";
    assertThat(Files.readString(ROOT.resolve("Jenkinsfile")))
        .contains("defaultValue: '" + workload + "'");
    assertThat(Files.readString(ROOT.resolve(".github/workflows/fusillade.yml")))
        .contains("WORKLOAD: ${{ inputs.workload || '" + workload + "' }}");
    CliRun check = CliRun.of("workload", "check", ROOT.resolve(workload).toString());
    assertThat(check.exitCode()).as("%s%s", check.out(), check.err()).isZero();
    assertThat(check.out()).contains("load: rate mode", "checks: errors < 1%");
  }

  @Test
  void aMisspeltOptionFails() {
    assertThat(problems("./fusillade compare --baseline b --candidate c --treshold 5%"))
        .singleElement()
        .satisfies(p -> assertThat(p).startsWith("line 1: ").contains("has no option --treshold"));
  }

  @Test
  void anOptionOfAnotherCommandFails() {
    // --rate is an option of run, not of report.
    assertThat(problems("  ./fusillade report runs --rate 100"))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("fusillade report has no option --rate"));
  }

  @Test
  void aCommandOrSubcommandThatDoesNotExistFails() {
    assertThat(problems("./fusillade comapre --baseline b --candidate c"))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("no command \"comapre\""));
    assertThat(problems("./fusillade workload validate w.yml"))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("has no subcommand \"validate\""));
  }

  @Test
  void aLineThatCannotBeReadFails() {
    List<String> unreadable = new ArrayList<>();
    PipelineInvocations.of("sh \"./fusillade run 'w.yml --output runs\"", unreadable);
    assertThat(unreadable).singleElement().satisfies(p -> assertThat(p).contains("not closed"));
  }

  @Test
  void readsCommandLinesAsAShellDoes() {
    String text =
        """
        stage {
          sh '''
            ./fusillade run "$WORKLOAD" --output runs \\
              --check 'p99 < 50ms' --seed=7 > run.txt
            ./fusillade report runs --output fusillade-report || test $? -eq 3
            java -jar simulations/target/fusillade.jar workload check w.yml --url "$URL"; echo done
          '''
        }
        # ./fusillade in a comment is prose, not a command line
          // ./fusillade neither
        """;
    List<String> unreadable = new ArrayList<>();
    List<PipelineInvocations.Invocation> invocations = PipelineInvocations.of(text, unreadable);
    assertThat(unreadable).isEmpty();
    assertThat(invocations)
        .extracting(PipelineInvocations.Invocation::words)
        .containsExactly(
            List.of("run", "$WORKLOAD", "--output", "runs", "--check", "p99 < 50ms", "--seed=7"),
            List.of("report", "runs", "--output", "fusillade-report"),
            List.of("workload", "check", "w.yml", "--url", "$URL"));
    assertThat(invocations)
        .extracting(PipelineInvocations.Invocation::line)
        .containsExactly(3, 5, 6);
    assertThat(PipelineCommands.problems(invocations)).isEmpty();
  }

  @Test
  void helpListsTheShortAndLongNames() {
    assertThat(PipelineCommands.helpOptions(List.of("report")))
        .contains("-o", "--output", "--check", "-h", "--help");
    assertThat(PipelineCommands.helpOptions(List.of("workload", "check"))).contains("--url");
  }

  private static List<String> problems(String text) {
    List<String> unreadable = new ArrayList<>();
    List<String> problems = PipelineCommands.problems(PipelineInvocations.of(text, unreadable));
    assertThat(unreadable).isEmpty();
    return problems;
  }
}
