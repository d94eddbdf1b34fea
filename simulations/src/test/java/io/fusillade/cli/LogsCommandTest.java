package io.fusillade.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fusillade.logs.BulkBodies;
import io.fusillade.logs.JsonBuffer;
import io.fusillade.logs.WebLogs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogsCommandTest {
  @TempDir Path dir;

  private int run(StringWriter err, String... args) {
    return FusilladeCommand.execute(
        args, new PrintWriter(new StringWriter()), new PrintWriter(err));
  }

  @Test
  void generateWritesTheProtocolsDocumentsForTheSeed() throws Exception {
    Path file = dir.resolve("web.ndjson");
    StringWriter err = new StringWriter();
    int code =
        run(
            err,
            "logs",
            "generate",
            "--profile",
            "web",
            "--docs",
            "1234",
            "--seed",
            "7",
            "--bulk",
            "--file",
            file.toString());
    assertThat(code).as(err.toString()).isZero();
    JsonBuffer expected = new JsonBuffer();
    BulkBodies.append(new WebLogs(7), 0, 1234, expected);
    assertThat(Files.readAllBytes(file)).isEqualTo(expected.toByteArray());

    Path plain = dir.resolve("k8s.ndjson");
    assertThat(
            run(
                err,
                "logs",
                "generate",
                "--profile",
                "k8s",
                "--docs",
                "10",
                "-f",
                plain.toString()))
        .isZero();
    assertThat(Files.readAllLines(plain))
        .hasSize(10)
        .allMatch(l -> l.startsWith("{\"@timestamp\""));
  }

  @Test
  void anUnknownProfileIsAUserError() {
    StringWriter err = new StringWriter();
    assertThat(run(err, "logs", "generate", "--profile", "apache", "--docs", "1")).isEqualTo(2);
    assertThat(err.toString()).contains("--profile must be web or k8s");
  }
}
