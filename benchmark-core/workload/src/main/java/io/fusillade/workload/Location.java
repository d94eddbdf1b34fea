package io.fusillade.workload;

/**
 * A position in a workload file, as editors show it.
 *
 * @param file the file name as the user gave it
 * @param line the line, from 1
 * @param column the column, from 1
 */
public record Location(String file, int line, int column) {

  @Override
  public String toString() {
    return file + ":" + line + ":" + column;
  }
}
