package io.fusillade.cli;

import io.fusillade.progress.Progress;
import picocli.CommandLine.Option;

/**
 * {@code --progress=auto|tty|plain|none}: how a command shows the progress of long work. A mixin,
 * so that every command with long work (schema, later the limit searches) takes the same option.
 */
final class ProgressOptions {
  @Option(
      names = "--progress",
      paramLabel = "auto|tty|plain|none",
      description = {
        "How long work shows progress: tty redraws one line, plain prints one line every 10 s,"
            + " none prints only the summary; auto (default) chooses tty on a terminal, plain"
            + " otherwise. Default: the environment variable "
            + Progress.Settings.VARIABLE
            + ", else auto."
      })
  String mode;

  /** The settings from the option, else the environment. */
  Progress.Settings settings() {
    return Progress.Settings.resolve(mode, System.getenv());
  }
}
