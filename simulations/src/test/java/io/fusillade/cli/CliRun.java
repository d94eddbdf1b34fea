package io.fusillade.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** The {@code fusillade} command run in this JVM: its exit code and what it printed. */
record CliRun(int exitCode, String out, String err) {

  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        FusilladeCommand.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new CliRun(code, out.toString(), err.toString());
  }
}
