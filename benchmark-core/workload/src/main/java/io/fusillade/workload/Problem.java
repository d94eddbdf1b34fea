package io.fusillade.workload;

/**
 * One thing wrong with a workload file: where, in which field, and what.
 *
 * @param location the position of the offending value (or of its enclosing mapping, for a missing
 *     field)
 * @param path the field path, like {@code tables_schema[0].columns[1].range}; empty for the file as
 *     a whole
 * @param message what is wrong, for the user; never contains a secret
 */
public record Problem(Location location, String path, String message) {

  /**
   * @return {@code file:line:column path: message}
   */
  @Override
  public String toString() {
    return location + (path.isEmpty() ? "" : " " + path) + ": " + message;
  }
}
