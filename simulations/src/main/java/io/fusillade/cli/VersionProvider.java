package io.fusillade.cli;

import picocli.CommandLine.IVersionProvider;

/** The version from the jar's manifest ({@code dev} when running from classes). */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = FusilladeCommand.class.getPackage().getImplementationVersion();
    return new String[] {
      "fusillade " + (version != null ? version : "dev"),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
